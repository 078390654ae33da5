#!/usr/bin/env node
// Interop check: the official MCP TypeScript SDK client (Client + StreamableHTTPClientTransport)
// against the sample application's catalogue.
//
//   node subscribe.mjs http://localhost:8080 [correlated|merged]
//
// Subscribes to catalog://products (the collection) and to catalog://products/3, renames product 3
// through the REST API (PUT /api/products/3), then product 4 (covered by the collection only).
// correlated (the default): the client declares the experimental capability
//   io.github.mcpsubscriptions/correlation and must get, for product 3, one
//   notifications/resources/updated per matching subscription: subscribedUri catalog://products
//   and catalog://products/3.
// merged: the client declares nothing, as the SDK out of the box, and must get ONE notification
//   for product 3 (naming the most specific subscription, catalog://products/3).
// Both changes go down the session's stream in order, so once product 4's notification is in,
// every notification for product 3 is too, and their count is exact. It waits at most 15 s for
// them, reads catalog://products/3 back, unsubscribes, terminates the session (DELETE) and closes.
// Prints one line "ts-sdk interop: PASS (...)" and exits 0, or "ts-sdk interop: FAIL: <reason>"
// and exits 1. Diagnostics go to stderr.
//
// subscribedUri is an extension field: the SDK's ResourceUpdatedNotificationSchema is a plain zod
// object and strips keys it does not know, so the handler is registered with the same schema whose
// params are made loose (zod's .loose()), which keeps them. The SDK still validates the rest of the
// notification exactly as it would with its own schema.
//
// Needs @modelcontextprotocol/sdk (pinned in package.json) resolvable from this file's directory.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
	ResourceUpdatedNotificationParamsSchema,
	ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const COLLECTION = 'catalog://products';
const PRODUCT_ID = 3;
const PRODUCT = `catalog://products/${PRODUCT_ID}`;
const BARRIER_ID = 4;
const BARRIER = `catalog://products/${BARRIER_ID}`;
const MODE = process.argv[3] ?? 'correlated';
const NOTIFICATION_WAIT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;
const OVERALL_TIMEOUT_MS = 60_000;

const started = Date.now();
const log = (message) => process.stderr.write(`[ts-sdk interop] ${message}\n`);

class Failure extends Error {}
const fail = (reason) => {
	throw new Failure(reason);
};

function sdkVersion() {
	try {
		// .../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js -> .../sdk/package.json
		const entry = fileURLToPath(import.meta.resolve('@modelcontextprotocol/sdk/client/index.js'));
		const root = entry.slice(0, entry.lastIndexOf('/dist/'));
		return JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version;
	} catch {
		return 'unknown';
	}
}

function baseUrl() {
	const arg = process.argv[2];
	if (!arg || !['correlated', 'merged'].includes(MODE)) {
		fail('usage: node subscribe.mjs <server base URL, e.g. http://localhost:8080> [correlated|merged]');
	}
	let url;
	try {
		url = new URL(arg);
	} catch {
		fail(`not a URL: ${arg}`);
	}
	return url.href.replace(/\/+$/, '');
}

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

// The SDK's own schema, with params that keep unknown keys (subscribedUri) instead of stripping them.
const ResourceUpdatedWithSubscribedUri = ResourceUpdatedNotificationSchema.extend({
	params: ResourceUpdatedNotificationParamsSchema.loose(),
});

async function run(base) {
	const version = sdkVersion();
	const transportErrors = [];
	const notifications = []; // { uri, subscribedUri, at }
	let onNotification = () => {};

	// Declaring the server's correlation extension gets one notification per matching
	// subscription; without it the server merges them into one per change.
	const correlated = MODE === 'correlated';
	const client = new Client(
		{ name: 'mcp-subscriptions-interop-ts', version: '0.1.0' },
		correlated ? { capabilities: { experimental: { 'io.github.mcpsubscriptions/correlation': {} } } } : {},
	);
	client.onerror = (error) => {
		transportErrors.push(String(error?.message ?? error));
		log(`client error: ${error?.message ?? error}`);
	};
	client.setNotificationHandler(ResourceUpdatedWithSubscribedUri, (notification) => {
		const { uri, subscribedUri } = notification.params;
		log(`notifications/resources/updated ${JSON.stringify(notification.params)}`);
		notifications.push({ uri, subscribedUri, at: Date.now() });
		onNotification();
	});

	const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
	try {
		await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		fail(`connect/initialize failed: ${error?.message ?? error}`);
	}
	const server = client.getServerVersion();
	log(`connected to ${server?.name} ${server?.version}, protocol ${transport.protocolVersion}, session ${transport.sessionId}`);
	if (!transport.sessionId) {
		fail('the server gave no Mcp-Session-Id');
	}
	if (client.getServerCapabilities()?.resources?.subscribe !== true) {
		fail(`the server does not advertise resources.subscribe: ${JSON.stringify(client.getServerCapabilities())}`);
	}

	const requestOptions = { timeout: REQUEST_TIMEOUT_MS };
	for (const uri of [COLLECTION, PRODUCT]) {
		try {
			await client.subscribeResource({ uri }, requestOptions);
		} catch (error) {
			fail(`resources/subscribe ${uri} failed: ${error?.message ?? error}`);
		}
	}
	log(`subscribed to ${COLLECTION} and ${PRODUCT}`);

	// The subscriptions product 3's notifications name; product 4's only notification names the collection.
	const expected = correlated ? [COLLECTION, PRODUCT] : [PRODUCT];
	const missing = () =>
		expected.filter((subscribedUri) => !notifications.some((n) => n.uri === PRODUCT && n.subscribedUri === subscribedUri));
	const bothArrived = new Promise((resolve) => {
		onNotification = () => notifications.some((n) => n.uri === BARRIER) && resolve();
	});

	const current = await rest('GET', `${base}/api/products/${PRODUCT_ID}`);
	const newName = `Interop pen ${randomBytes(4).toString('hex')}`;
	const changedAt = Date.now();
	await rest('PUT', `${base}/api/products/${PRODUCT_ID}`, { name: newName, price: current.price ?? 1 });
	log(`PUT /api/products/${PRODUCT_ID} name="${newName}"`);
	const barrier = await rest('GET', `${base}/api/products/${BARRIER_ID}`);
	await rest('PUT', `${base}/api/products/${BARRIER_ID}`, { name: barrier.name, price: barrier.price ?? 1 });
	log(`PUT /api/products/${BARRIER_ID} (unchanged)`);

	let timer;
	const timedOut = new Promise((resolve) => {
		timer = setTimeout(() => resolve('timeout'), NOTIFICATION_WAIT_MS);
	});
	const outcome = await Promise.race([bothArrived, timedOut]);
	clearTimeout(timer);
	if (outcome === 'timeout') {
		const seen = notifications.map((n) => `${n.uri} via ${n.subscribedUri}`).join(', ') || 'none';
		fail(
			`within ${NOTIFICATION_WAIT_MS / 1000} s no notifications/resources/updated for ${BARRIER} ` +
				`(received: ${seen})` +
				(transportErrors.length ? `; client errors: ${transportErrors.join(' | ')}` : ''),
		);
	}
	const forProduct = notifications.filter((n) => n.uri === PRODUCT);
	if (missing().length > 0 || forProduct.length !== expected.length) {
		fail(
			`${MODE}: expected for ${PRODUCT} one notification with subscribedUri ${expected.join(' and one with ')}, ` +
				`received: ${notifications.map((n) => `${n.uri} via ${n.subscribedUri}`).join(', ') || 'none'}`,
		);
	}
	const latency = Math.max(...notifications.map((n) => n.at)) - changedAt;

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

	for (const uri of [PRODUCT, COLLECTION]) {
		try {
			await client.unsubscribeResource({ uri }, requestOptions);
		} catch (error) {
			fail(`resources/unsubscribe ${uri} failed: ${error?.message ?? error}`);
		}
	}
	const session = transport.sessionId;
	try {
		await transport.terminateSession();
	} catch (error) {
		fail(`terminating the session (DELETE) failed: ${error?.message ?? error}`);
	}
	await client.close();

	return (
		`${MODE}, SDK ${version}, protocol ${transport.protocolVersion}, session ${session}: ` +
		`${forProduct.length} notification(s) for ${PRODUCT} (via ${expected.join(' and ')}) ${latency} ms after the PUT, ` +
		`read-back OK, unsubscribed, session terminated; ${transportErrors.length} client error(s); ${Date.now() - started} ms`
	);
}

async function main() {
	let watchdog;
	try {
		const summary = await Promise.race([
			run(baseUrl()),
			new Promise((_, reject) => {
				watchdog = setTimeout(() => reject(new Failure(`not done within ${OVERALL_TIMEOUT_MS / 1000} s`)), OVERALL_TIMEOUT_MS);
			}),
		]);
		console.log(`ts-sdk interop: PASS (${summary})`);
		process.exit(0);
	} catch (error) {
		const reason = error instanceof Failure ? error.message : `unexpected error: ${error?.stack ?? error}`;
		console.log(`ts-sdk interop: FAIL: ${reason}`);
		process.exit(1);
	} finally {
		clearTimeout(watchdog);
	}
}

await main();
