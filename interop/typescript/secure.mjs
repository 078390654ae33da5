#!/usr/bin/env node
// Interop check with OAuth: the official MCP TypeScript SDK client against the sample
// application's profile "secure".
//
//   node secure.mjs http://127.0.0.1:8080
//
// Finds the token endpoint the way an MCP client does (the 401's resource_metadata link, the
// document's authorization_servers, that server's /.well-known/oauth-authorization-server), gets a
// token for client mcp-full by the client_credentials grant, connects with it as a bearer token,
// subscribes to the restricted product catalog://products/4, changes it through the REST API with
// the same token and waits at most 15 s for notifications/resources/updated. Then checks that
// client mcp-limited (scope catalog:read only) is told of that product as of one that does not exist (subscribe, read).
// Prints one line "ts-sdk secure interop: PASS (...)" and exits 0, or "... FAIL: <reason>" and
// exits 1. Diagnostics go to stderr.
//
// Needs @modelcontextprotocol/sdk (pinned in package.json) resolvable from this file's directory.

import { randomBytes } from 'node:crypto';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const PRODUCT_ID = 4;
const PRODUCT = `catalog://products/${PRODUCT_ID}`;
const NOTIFICATION_WAIT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;
const OVERALL_TIMEOUT_MS = 60_000;
const FULL = { id: 'mcp-full', secret: 'mcp-full-secret', scope: 'catalog:read catalog:restricted catalog:write files:read' };
const LIMITED = { id: 'mcp-limited', secret: 'mcp-limited-secret', scope: 'catalog:read' };

const log = (message) => process.stderr.write(`[ts-sdk secure interop] ${message}\n`);
class Failure extends Error {}
const fail = (reason) => {
	throw new Failure(reason);
};

async function fetchJson(url, init = {}) {
	const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
	const text = await response.text();
	if (!response.ok) {
		fail(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 200)}`);
	}
	return JSON.parse(text);
}

async function tokenEndpoint(base) {
	const refused = await fetch(`${base}/mcp`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
		signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
	});
	const challenge = refused.headers.get('www-authenticate') ?? '';
	if (refused.status !== 401 || !challenge.startsWith('Bearer')) {
		fail(`without a token the endpoint answered ${refused.status} "${challenge}", not 401 Bearer`);
	}
	const link = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? fail(`no resource_metadata in "${challenge}"`);
	const metadata = await fetchJson(link);
	const issuer = metadata.authorization_servers?.[0] ?? fail(`no authorization_servers in ${JSON.stringify(metadata)}`);
	const server = await fetchJson(`${issuer.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`);
	return { endpoint: server.token_endpoint, resource: metadata.resource };
}

async function token(discovered, client) {
	const body = new URLSearchParams({ grant_type: 'client_credentials', scope: client.scope, resource: discovered.resource });
	const answer = await fetchJson(discovered.endpoint, {
		method: 'POST',
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
		},
		body,
	});
	return answer.access_token ?? fail(`no access_token for ${client.id}`);
}

async function connect(base, accessToken, name) {
	const client = new Client({ name, version: '0.1.0' });
	const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
		requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
	});
	try {
		await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		fail(`${name}: connect/initialize with a token failed: ${error?.message ?? error}`);
	}
	return { client, transport };
}

async function run(base) {
	const discovered = await tokenEndpoint(base);
	log(`token endpoint ${discovered.endpoint}, resource ${discovered.resource}`);
	const fullToken = await token(discovered, FULL);

	const { client, transport } = await connect(base, fullToken, 'mcp-subscriptions-interop-ts-secure');
	const received = [];
	let arrived;
	const notified = new Promise((resolve) => {
		arrived = resolve;
	});
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
		log(`notifications/resources/updated ${JSON.stringify(notification.params)}`);
		received.push(notification.params.uri);
		if (notification.params.uri === PRODUCT) {
			arrived();
		}
	});
	await client.subscribeResource({ uri: PRODUCT }, { timeout: REQUEST_TIMEOUT_MS });
	const newName = `Secure interop ${randomBytes(4).toString('hex')}`;
	await fetchJson(`${base}/api/products/${PRODUCT_ID}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${fullToken}` },
		body: JSON.stringify({ name: newName, price: 4 }),
	});
	let timer;
	const outcome = await Promise.race([
		notified,
		new Promise((resolve) => {
			timer = setTimeout(() => resolve('timeout'), NOTIFICATION_WAIT_MS);
		}),
	]);
	clearTimeout(timer);
	if (outcome === 'timeout') {
		fail(`no notifications/resources/updated for ${PRODUCT} within ${NOTIFICATION_WAIT_MS / 1000} s (received: ${received.join(', ') || 'none'})`);
	}
	const read = await client.readResource({ uri: PRODUCT }, { timeout: REQUEST_TIMEOUT_MS });
	if (!JSON.stringify(read.contents).includes(newName)) {
		fail(`resources/read ${PRODUCT} does not show "${newName}"`);
	}
	await transport.terminateSession();
	await client.close();

	const limited = await connect(base, await token(discovered, LIMITED), 'mcp-subscriptions-interop-ts-limited');
	// A restricted product is answered as one that does not exist: its subscription is
	// accepted alike (and never delivers), its read refused alike (-32002).
	const answer = async (call) => {
		try {
			await call();
			return 'accepted';
		} catch (error) {
			return `error ${error?.code}`;
		}
	};
	const MISSING = 'catalog://products/999999';
	const subscribeHidden = await answer(() => limited.client.subscribeResource({ uri: PRODUCT }, { timeout: REQUEST_TIMEOUT_MS }));
	const subscribeMissing = await answer(() => limited.client.subscribeResource({ uri: MISSING }, { timeout: REQUEST_TIMEOUT_MS }));
	if (subscribeHidden !== subscribeMissing) {
		fail(`mcp-limited's subscription to ${PRODUCT} (${subscribeHidden}) is not answered as one to ${MISSING} (${subscribeMissing})`);
	}
	const readHidden = await answer(() => limited.client.readResource({ uri: PRODUCT }, { timeout: REQUEST_TIMEOUT_MS }));
	const readMissing = await answer(() => limited.client.readResource({ uri: MISSING }, { timeout: REQUEST_TIMEOUT_MS }));
	if (readHidden !== 'error -32002' || readMissing !== 'error -32002') {
		fail(`mcp-limited's reads of ${PRODUCT} (${readHidden}) and ${MISSING} (${readMissing}) are not both refused as not found`);
	}
	await limited.transport.terminateSession();
	await limited.client.close();
	return `protocol ${transport.protocolVersion}: mcp-full notified of ${PRODUCT} and read it back; mcp-limited told ${PRODUCT} as ${MISSING}: subscribe ${subscribeHidden}, read refused (-32002)`;
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
		console.log(`ts-sdk secure interop: PASS (${summary})`);
		process.exit(0);
	} catch (error) {
		const reason = error instanceof Failure ? error.message : `unexpected error: ${error?.stack ?? error}`;
		console.log(`ts-sdk secure interop: FAIL: ${reason}`);
		process.exit(1);
	} finally {
		clearTimeout(watchdog);
	}
}

await main();
