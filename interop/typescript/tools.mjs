#!/usr/bin/env node
// Interop check: the official MCP TypeScript SDK client (Client + StreamableHTTPClientTransport)
// calls the sample application's Spring AI tools and is told of their effect.
//
//   node tools.mjs http://localhost:8080
//
// Connects to <base>/mcp, checks that the server advertises tools, lists them (find_products and
// change_price must be there, each with an object inputSchema), calls find_products, calls
// change_price with a missing argument (which must be a tool error, isError: true, not a protocol
// error), subscribes to catalog://products/2, calls change_price for product 2 with a new price,
// then waits at most 15 s for notifications/resources/updated for catalog://products/2 (the change
// the tool made, published by the catalogue after its commit) and reads the product back.
// Terminates the session (DELETE) and closes. Prints one line "ts-sdk interop tools: PASS (...)" and
// exits 0, or "ts-sdk interop tools: FAIL: <reason>" and exits 1. Diagnostics go to stderr.
//
// Needs @modelcontextprotocol/sdk (pinned in package.json) resolvable from this file's directory.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const PRODUCT_ID = 2;
const PRODUCT = `catalog://products/${PRODUCT_ID}`;
const NOTIFICATION_WAIT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;
const OVERALL_TIMEOUT_MS = 60_000;

const started = Date.now();
const log = (message) => process.stderr.write(`[ts-sdk interop tools] ${message}\n`);

class Failure extends Error {}
const fail = (reason) => {
	throw new Failure(reason);
};

function baseUrl() {
	const arg = process.argv[2];
	if (!arg) {
		fail('usage: node tools.mjs <server base URL, e.g. http://localhost:8080>');
	}
	let url;
	try {
		url = new URL(arg);
	} catch {
		fail(`not a URL: ${arg}`);
	}
	return url.href.replace(/\/+$/, '');
}

const textOf = (result) => (result.content ?? []).map((c) => c.text ?? '').join('\n');

async function run(base) {
	const transportErrors = [];
	const updates = []; // { uri, at }
	let onUpdate = () => {};

	const client = new Client({ name: 'mcp-subscriptions-interop-ts-tools', version: '0.1.0' }, { capabilities: {} });
	client.onerror = (error) => {
		transportErrors.push(String(error?.message ?? error));
		log(`client error: ${error?.message ?? error}`);
	};
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
		log(`notifications/resources/updated ${JSON.stringify(notification.params)}`);
		updates.push({ uri: notification.params.uri, at: Date.now() });
		onUpdate();
	});

	const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
	try {
		await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		fail(`connect/initialize failed: ${error?.message ?? error}`);
	}
	const capabilities = client.getServerCapabilities();
	if (!capabilities?.tools) {
		fail(`the server does not advertise tools: ${JSON.stringify(capabilities)}`);
	}
	const options = { timeout: REQUEST_TIMEOUT_MS };

	let tools;
	try {
		tools = (await client.listTools({}, options)).tools;
	} catch (error) {
		fail(`tools/list failed: ${error?.message ?? error}`);
	}
	for (const name of ['find_products', 'change_price']) {
		const tool = tools.find((t) => t.name === name);
		if (!tool) {
			fail(`tools/list has no ${name}: ${tools.map((t) => t.name).join(', ')}`);
		}
		if (tool.inputSchema?.type !== 'object') {
			fail(`${name} has no object inputSchema: ${JSON.stringify(tool.inputSchema)}`);
		}
	}
	log(`tools: ${tools.map((t) => t.name).join(', ')}`);

	const found = await client.callTool({ name: 'find_products', arguments: { query: 'notebook' } }, undefined, options);
	if (found.isError || !textOf(found).toLowerCase().includes('notebook')) {
		fail(`find_products did not find the notebook: ${JSON.stringify(found)}`);
	}

	const invalid = await client.callTool({ name: 'change_price', arguments: { id: PRODUCT_ID } }, undefined, options);
	if (invalid.isError !== true || !textOf(invalid).includes('price')) {
		fail(`change_price without a price should be a tool error naming "price": ${JSON.stringify(invalid)}`);
	}

	try {
		await client.subscribeResource({ uri: PRODUCT }, options);
	} catch (error) {
		fail(`resources/subscribe ${PRODUCT} failed: ${error?.message ?? error}`);
	}
	const arrived = new Promise((resolve) => {
		onUpdate = () => updates.some((u) => u.uri === PRODUCT) && resolve('arrived');
	});

	const price = Number((1 + Math.random() * 98).toFixed(2));
	const calledAt = Date.now();
	const changed = await client.callTool({ name: 'change_price', arguments: { id: PRODUCT_ID, price } }, undefined, options);
	if (changed.isError || !textOf(changed).includes('is now')) {
		fail(`change_price failed: ${JSON.stringify(changed)}`);
	}
	log(`change_price: ${textOf(changed)}`);

	let timer;
	const outcome = await Promise.race([
		arrived,
		new Promise((resolve) => {
			timer = setTimeout(() => resolve('timeout'), NOTIFICATION_WAIT_MS);
		}),
	]);
	clearTimeout(timer);
	if (outcome === 'timeout') {
		fail(
			`within ${NOTIFICATION_WAIT_MS / 1000} s no notifications/resources/updated for ${PRODUCT} after change_price ` +
				`(received: ${updates.map((u) => u.uri).join(', ') || 'none'})` +
				(transportErrors.length ? `; client errors: ${transportErrors.join(' | ')}` : ''),
		);
	}
	const latency = updates.find((u) => u.uri === PRODUCT).at - calledAt;

	const read = await client.readResource({ uri: PRODUCT }, options);
	const product = JSON.parse((read.contents ?? [])[0]?.text ?? '{}');
	if (Number(product.price) !== price) {
		fail(`resources/read ${PRODUCT} does not show price ${price}: ${JSON.stringify(product)}`);
	}

	const session = transport.sessionId;
	await transport.terminateSession();
	await client.close();
	return (
		`session ${session}: ${tools.length} tools listed, find_products OK, invalid arguments a tool error, ` +
		`change_price announced on ${PRODUCT} ${latency} ms after the call, read-back OK; ` +
		`${transportErrors.length} client error(s); ${Date.now() - started} ms`
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
		console.log(`ts-sdk interop tools: PASS (${summary})`);
		process.exit(0);
	} catch (error) {
		const reason = error instanceof Failure ? error.message : `unexpected error: ${error?.stack ?? error}`;
		console.log(`ts-sdk interop tools: FAIL: ${reason}`);
		process.exit(1);
	} finally {
		clearTimeout(watchdog);
	}
}

await main();
