#!/usr/bin/env node
// Interop check: the official MCP TypeScript SDK 2.x client (@modelcontextprotocol/client, pinned
// in package.json) against the sample application's catalogue, in either protocol era.
//
//   node subscribe.mjs http://localhost:8080 2025|2026 merged|correlated
//
// 2025: the plain initialize handshake, then resources/subscribe to the three URIs below.
// 2026: versionNegotiation pinned to 2026-07-28 (server/discover, no session), then one
//       subscriptions/listen with the three URIs as its resourceSubscriptions.
// merged:     the client does not declare io.github.mcpsubscriptions/correlation, as every SDK
//             client out of the box: a change covered by all three subscriptions must arrive
//             ONCE (naming the most specific subscription, catalog://products/3).
// correlated: the client declares the capability (under experimental and extensions): the same
//             change must arrive once per matching subscription, each naming it in subscribedUri.
//
// It renames product 3 (covered by all three subscriptions) and then product 4 (covered by the
// collection and the template) through the REST API. Both go down the same stream in order, so
// once product 4's notifications are in, every notification for product 3 is too: the count for
// product 3 is exact, not a guess after a pause. Then it reads product 3 back and closes.
// Prints one line "ts-sdk-2 interop <era> <mode>: PASS (...)" and exits 0, or "... FAIL: <reason>"
// and exits 1; every wait is bounded (15 s per notification batch, 60 s in all).
//
// subscribedUri is an extension field the SDK's own schema strips, so the handler is registered
// with the SDK's custom-schema form and a Standard Schema (written out below, the SDK accepts any)
// that checks uri and keeps every other field.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const CAPABILITY = 'io.github.mcpsubscriptions/correlation';
const SUBSCRIPTIONS = ['catalog://products', 'catalog://products/{id}', 'catalog://products/3'];
const PRODUCT = 'catalog://products/3';
const BARRIER = 'catalog://products/4';
const NOTIFICATION_WAIT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;
const OVERALL_TIMEOUT_MS = 60_000;

const [, , baseArg, era, mode] = process.argv;
const label = `ts-sdk-2 interop ${era ?? '?'} ${mode ?? '?'}`;
const started = Date.now();
const log = (message) => process.stderr.write(`[${label}] ${message}\n`);

class Failure extends Error {}
const fail = (reason) => {
	throw new Failure(reason);
};

function sdkVersion() {
	try {
		const entry = fileURLToPath(import.meta.resolve('@modelcontextprotocol/client'));
		const root = entry.slice(0, entry.lastIndexOf('/dist/'));
		return JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version;
	} catch {
		return 'unknown';
	}
}

function arguments_() {
	if (!baseArg || !['2025', '2026'].includes(era) || !['merged', 'correlated'].includes(mode)) {
		fail('usage: node subscribe.mjs <server base URL> 2025|2026 merged|correlated');
	}
	let url;
	try {
		url = new URL(baseArg);
	} catch {
		fail(`not a URL: ${baseArg}`);
	}
	return url.href.replace(/\/+$/, '');
}

// A Standard Schema (v1) for the notification's params: uri must be a string, the rest is kept.
const UpdatedParams = {
	'~standard': {
		version: 1,
		vendor: 'mcp-subscriptions-interop',
		validate: (value) =>
			value && typeof value === 'object' && typeof value.uri === 'string'
				? { value }
				: { issues: [{ message: `params without a string uri: ${JSON.stringify(value)}` }] },
	},
};

async function rest(method, url, body) {
	const response = await fetch(url, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
	});
	const text = await response.text();
	if (!response.ok) {
		fail(`${method} ${url} answered ${response.status}: ${text.slice(0, 200)}`);
	}
	return JSON.parse(text);
}

async function rename(base, uri) {
	const id = uri.slice(uri.lastIndexOf('/') + 1);
	const current = await rest('GET', `${base}/api/products/${id}`);
	const name = `${current.name.replace(/ [0-9a-f]{8}$/, '')} ${randomBytes(4).toString('hex')}`;
	await rest('PUT', `${base}/api/products/${id}`, { name, price: current.price ?? 1 });
	log(`PUT /api/products/${id} name="${name}"`);
	return name;
}

async function run(base) {
	const correlated = mode === 'correlated';
	const notifications = []; // { uri, subscribedUri }
	const clientErrors = [];
	let onNotification = () => {};

	const options = {};
	if (correlated) {
		// experimental is where a 2025 server looks, extensions where a 2026 one does; both are read.
		options.capabilities = { experimental: { [CAPABILITY]: {} }, extensions: { [CAPABILITY]: {} } };
	}
	if (era === '2026') {
		options.versionNegotiation = { mode: { pin: '2026-07-28' } };
	}
	const client = new Client({ name: 'mcp-subscriptions-interop-ts2', version: '0.1.0' }, options);
	client.onerror = (error) => {
		clientErrors.push(String(error?.message ?? error));
		log(`client error: ${error?.message ?? error}`);
	};
	client.setNotificationHandler(
		'notifications/resources/updated',
		{ params: UpdatedParams },
		(params) => {
			log(`notifications/resources/updated ${JSON.stringify(params)}`);
			notifications.push({ uri: params.uri, subscribedUri: params.subscribedUri });
			onNotification();
		},
	);

	const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
	try {
		await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		fail(`connect failed: ${error?.message ?? error}`);
	}
	const protocol = transport.protocolVersion;
	log(`connected, protocol ${protocol}, session ${transport.sessionId ?? 'none'}`);
	const wantedProtocol = era === '2026' ? /^2026-07-28$/ : /^2025-/;
	if (!wantedProtocol.test(protocol ?? '')) {
		fail(`negotiated protocol ${protocol}, not the ${era} era`);
	}
	const capabilities = client.getServerCapabilities() ?? {};
	const advertised = era === '2026' ? capabilities.extensions : capabilities.experimental;
	if (!advertised || !(CAPABILITY in advertised)) {
		fail(`the server does not advertise ${CAPABILITY}: ${JSON.stringify(capabilities)}`);
	}

	const requestOptions = { timeout: REQUEST_TIMEOUT_MS };
	let subscription;
	if (era === '2026') {
		try {
			subscription = await client.listen({ resourceSubscriptions: SUBSCRIPTIONS }, requestOptions);
		} catch (error) {
			fail(`subscriptions/listen failed: ${error?.message ?? error}`);
		}
		const honored = subscription.honoredFilter?.resourceSubscriptions ?? [];
		if (SUBSCRIPTIONS.some((uri) => !honored.includes(uri))) {
			fail(`the acknowledged filter lacks some of ${SUBSCRIPTIONS.join(', ')}: ${JSON.stringify(subscription.honoredFilter)}`);
		}
	} else {
		for (const uri of SUBSCRIPTIONS) {
			try {
				await client.subscribeResource({ uri }, requestOptions);
			} catch (error) {
				fail(`resources/subscribe ${uri} failed: ${error?.message ?? error}`);
			}
		}
	}
	log(`subscribed to ${SUBSCRIPTIONS.join(', ')}`);

	// The subscriptions each change's notifications name: every matching one when correlated, else
	// the most specific (the URI itself before a template before an ancestor).
	const expectedFor = (uri) => {
		const matching = SUBSCRIPTIONS.filter((s) => s !== PRODUCT || uri === PRODUCT);
		return correlated ? matching : [uri === PRODUCT ? PRODUCT : 'catalog://products/{id}'];
	};
	const of = (uri) => notifications.filter((n) => n.uri === uri);
	const barrierIn = new Promise((resolve) => {
		onNotification = () => of(BARRIER).length >= expectedFor(BARRIER).length && resolve('in');
	});

	const newName = await rename(base, PRODUCT);
	const changedAt = Date.now();
	await rename(base, BARRIER);

	let timer;
	const outcome = await Promise.race([
		barrierIn,
		new Promise((resolve) => {
			timer = setTimeout(() => resolve('timeout'), NOTIFICATION_WAIT_MS);
		}),
	]);
	clearTimeout(timer);
	const seen = () => notifications.map((n) => `${n.uri} via ${n.subscribedUri ?? '-'}`).join(', ') || 'none';
	if (outcome === 'timeout') {
		fail(
			`within ${NOTIFICATION_WAIT_MS / 1000} s not every notification arrived (received: ${seen()})` +
				(clientErrors.length ? `; client errors: ${clientErrors.join(' | ')}` : ''),
		);
	}
	const latency = Date.now() - changedAt;
	for (const uri of [PRODUCT, BARRIER]) {
		const got = of(uri).map((n) => n.subscribedUri ?? '-').sort();
		const want = expectedFor(uri).sort();
		if (JSON.stringify(got) !== JSON.stringify(want)) {
			fail(`for ${uri} expected one notification per ${want.join(', ')}, got ${got.length}: ${seen()}`);
		}
	}

	let read;
	try {
		read = await client.readResource({ uri: PRODUCT }, requestOptions);
	} catch (error) {
		fail(`resources/read ${PRODUCT} failed: ${error?.message ?? error}`);
	}
	const text = (read.contents ?? []).map((c) => c.text ?? '').join('\n');
	if (!text.includes(newName)) {
		fail(`resources/read ${PRODUCT} does not show the new name "${newName}": ${text.slice(0, 200)}`);
	}

	if (subscription) {
		await subscription.close();
	} else {
		for (const uri of SUBSCRIPTIONS) {
			await client.unsubscribeResource({ uri }, requestOptions);
		}
		await transport.terminateSession();
	}
	await client.close();
	return (
		`SDK ${sdkVersion()}, protocol ${protocol}: ${of(PRODUCT).length} notification(s) for ${PRODUCT} ` +
		`(${of(PRODUCT).map((n) => `via ${n.subscribedUri ?? '-'}`).join(', ')}), all in within ${latency} ms; ` +
		`read-back OK; ${clientErrors.length} client error(s); ${Date.now() - started} ms`
	);
}

async function main() {
	let watchdog;
	try {
		const summary = await Promise.race([
			run(arguments_()),
			new Promise((_, reject) => {
				watchdog = setTimeout(() => reject(new Failure(`not done within ${OVERALL_TIMEOUT_MS / 1000} s`)), OVERALL_TIMEOUT_MS);
			}),
		]);
		console.log(`${label}: PASS (${summary})`);
		process.exit(0);
	} catch (error) {
		const reason = error instanceof Failure ? error.message : `unexpected error: ${error?.stack ?? error}`;
		console.log(`${label}: FAIL: ${reason}`);
		process.exit(1);
	} finally {
		clearTimeout(watchdog);
	}
}

await main();
