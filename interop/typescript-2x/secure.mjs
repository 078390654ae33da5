#!/usr/bin/env node
// Interop check with OAuth: the official MCP TypeScript SDK 2.x client's own OAuth support
// (@modelcontextprotocol/client, pinned in package.json) against the sample application's profile
// "secure", in both protocol eras.
//
//   node secure.mjs http://127.0.0.1:8080
//
// Each client is given only its credentials (the SDK's ClientCredentialsProvider, no scope): the
// SDK meets the 401, follows its resource_metadata link to the authorization server, picks the
// scopes by the specification's scope selection (the 401's scope, else scopes_supported), gets a
// token and retries. The check watches the traffic (the transport's fetch) and expects the 401 to
// name a scope, the token request to ask for exactly that scope, and the client then to reach the
// endpoint and read product 3: mcp-limited (registered for catalog:read only) in the 2025 era,
// mcp-full in the 2026 era, where the token's least privilege also hides restricted product 4.
// Prints one line "ts-sdk-2 secure interop: PASS (...)" and exits 0, or "... FAIL: <reason>" and
// exits 1. Diagnostics go to stderr.

import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const PRODUCT = 'catalog://products/3';
const RESTRICTED = 'catalog://products/4';
const REQUEST_TIMEOUT_MS = 10_000;
const OVERALL_TIMEOUT_MS = 60_000;
const CLIENTS = [
	{ id: 'mcp-limited', secret: 'mcp-limited-secret', era: '2025' },
	{ id: 'mcp-full', secret: 'mcp-full-secret', era: '2026' },
];

const log = (message) => process.stderr.write(`[ts-sdk-2 secure interop] ${message}\n`);
class Failure extends Error {}
const fail = (reason) => {
	throw new Failure(reason);
};

/** The transport's fetch, recording the challenges the server sends and the scopes the client asks for. */
function watchingFetch(seen) {
	return async (input, init) => {
		const url = String(input instanceof Request ? input.url : input);
		const response = await fetch(input, init);
		if (response.status === 401) {
			seen.challenges.push(response.headers.get('www-authenticate') ?? '');
		}
		if (url.endsWith('/oauth2/token')) {
			const form = new URLSearchParams(typeof init?.body === 'string' ? init.body : String(init?.body ?? ''));
			seen.tokenRequests.push({ scope: form.get('scope'), status: response.status });
		}
		return response;
	};
}

async function check(base, { id, secret, era }) {
	const seen = { challenges: [], tokenRequests: [] };
	const options = era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
	const client = new Client({ name: `mcp-subscriptions-interop-ts2-${id}`, version: '0.1.0' }, options);
	const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
		authProvider: new ClientCredentialsProvider({ clientId: id, clientSecret: secret, expectedIssuer: base }),
		fetch: watchingFetch(seen),
	});
	try {
		await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		fail(`${id}: connect with the SDK's OAuth failed: ${error?.message ?? error} `
			+ `(challenges ${JSON.stringify(seen.challenges)}, token requests ${JSON.stringify(seen.tokenRequests)})`);
	}
	const challenged = /\bscope="([^"]+)"/.exec(seen.challenges[0] ?? '')?.[1]
		?? fail(`${id}: the 401 names no scope: ${JSON.stringify(seen.challenges)}`);
	const asked = seen.tokenRequests[0] ?? fail(`${id}: the SDK asked for no token`);
	if (asked.scope !== challenged || asked.status !== 200) {
		fail(`${id}: the SDK asked for scope "${asked.scope}" (answered ${asked.status}), the 401 named "${challenged}"`);
	}
	log(`${id}: the 401 named "${challenged}", the SDK asked for exactly that and connected (${transport.protocolVersion ?? era})`);
	const read = await client.readResource({ uri: PRODUCT }, { timeout: REQUEST_TIMEOUT_MS });
	if (!read.contents?.length) {
		fail(`${id}: resources/read ${PRODUCT} returned no contents`);
	}
	let hidden;
	try {
		await client.readResource({ uri: RESTRICTED }, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		hidden = error;
	}
	if (!hidden) {
		fail(`${id}: ${RESTRICTED} was readable with a token for "${challenged}" alone`);
	}
	if (era === '2025') {
		await transport.terminateSession();
	}
	await client.close();
	return `${id} ${era} era: asked for "${challenged}" as the 401 named, read ${PRODUCT}, ${RESTRICTED} hidden`;
}

async function run(base) {
	const results = [];
	for (const client of CLIENTS) {
		results.push(await check(base, client));
	}
	return results.join('; ');
}

async function main() {
	let watchdog;
	try {
		const base = (process.argv[2] ?? fail('usage: node secure.mjs <server base URL>')).replace(/\/+$/, '');
		const summary = await Promise.race([
			run(base),
			new Promise((_, reject) => {
				watchdog = setTimeout(() => reject(new Failure(`not done within ${OVERALL_TIMEOUT_MS / 1000} s`)), OVERALL_TIMEOUT_MS);
			}),
		]);
		console.log(`ts-sdk-2 secure interop: PASS (${summary})`);
		process.exit(0);
	} catch (error) {
		const reason = error instanceof Failure ? error.message : `unexpected error: ${error?.stack ?? error}`;
		console.log(`ts-sdk-2 secure interop: FAIL: ${reason}`);
		process.exit(1);
	} finally {
		clearTimeout(watchdog);
	}
}

await main();
