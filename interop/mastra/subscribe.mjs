#!/usr/bin/env node
// Interop check: Mastra's MCP client (@mastra/mcp, pinned in package.json with the @mastra/core it
// needs) against the sample application's catalogue, run with the profile "conformance".
//
//   node subscribe.mjs http://localhost:8080
//
// Mastra probes with server/discover and speaks the 2026-07-28 revision: no session, and resource
// updates on one subscriptions/listen stream that it replaces whenever the interest set changes.
// The check, with the client's defaults:
// - lists resources and templates, reads catalog://products/3, gets the prompt
//   test_prompt_with_arguments (prompts/get);
// - subscribes to the collection catalog://products and to catalog://products/2; renames product 2
//   (covered by both) and product 3 (the collection only) through the REST API, then product 4 (the
//   barrier: it goes down the same stream last, so once it is in, every earlier notification is):
//   exactly one notification each;
// - cuts the TCP connections under the client (all its traffic goes through a loopback proxy here)
//   and records what the client does: whether it opens a new subscriptions/listen by itself, and
//   whether a change made afterwards reaches it. The expectation is the behaviour observed with
//   the pinned version (docs/tested-clients.md): a different one fails the check, so that the page
//   is updated.
// Prints one line "mastra interop 2026: PASS (...)" and exits 0, or "... FAIL: <reason>" and
// exits 1; every wait is bounded (15 s per notification batch, 60 s in all).

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

import { MCPClient } from '@mastra/mcp';

const SERVER = 'sample';
const COLLECTION = 'catalog://products';
const PRODUCT = 'catalog://products/2';
const NOTIFICATION_WAIT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;
const OVERALL_TIMEOUT_MS = 60_000;
// How long after the cut the client is given to listen again before the change is made.
const AFTER_CUT_MS = 2_000;

const [, , baseArg] = process.argv;
const label = 'mastra interop 2026';
const started = Date.now();
const log = (message) => process.stderr.write(`[${label}] ${message}\n`);

class Failure extends Error {}
const fail = (reason) => {
	throw new Failure(reason);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function version(pkg) {
	try {
		const entry = fileURLToPath(import.meta.resolve(pkg));
		const root = entry.slice(0, entry.lastIndexOf('/dist/'));
		return JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version;
	} catch {
		return 'unknown';
	}
}

// A loopback TCP forwarder whose connections can all be cut at once.
function proxy(target) {
	const sockets = new Set();
	const server = net.createServer((client) => {
		const upstream = net.connect(target.port, target.hostname);
		for (const [a, b] of [
			[client, upstream],
			[upstream, client],
		]) {
			sockets.add(a);
			a.on('error', () => b.destroy());
			a.on('close', () => {
				sockets.delete(a);
				b.destroy();
			});
			a.pipe(b);
		}
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () =>
			resolve({
				port: server.address().port,
				cut: () => sockets.forEach((socket) => socket.destroy()),
				close: () => {
					sockets.forEach((socket) => socket.destroy());
					server.close();
				},
			}),
		);
	});
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

async function rename(base, id) {
	const current = await rest('GET', `${base}/api/products/${id}`);
	const name = `${current.name.replace(/ [0-9a-f]{8}$/, '')} ${randomBytes(4).toString('hex')}`;
	await rest('PUT', `${base}/api/products/${id}`, { name, price: current.price ?? 1 });
	log(`PUT /api/products/${id} name="${name}"`);
	return name;
}

async function until(condition, ms) {
	const deadline = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > deadline) {
			return false;
		}
		await sleep(50);
	}
	return true;
}

async function run(base) {
	const target = new URL(base);
	const cutter = await proxy(target);
	const methods = []; // the JSON-RPC methods the client sent, in order
	const protocols = new Set();
	const countingFetch = async (url, init) => {
		try {
			const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
			if (body?.method) {
				methods.push(body.method);
			}
		} catch {
			// Not JSON: not a JSON-RPC message.
		}
		const headers = new Headers(init?.headers);
		if (headers.get('mcp-protocol-version')) {
			protocols.add(headers.get('mcp-protocol-version'));
		}
		return fetch(url, init);
	};
	const mcp = new MCPClient({
		id: `interop-${randomBytes(4).toString('hex')}`,
		servers: {
			[SERVER]: {
				url: new URL(`http://127.0.0.1:${cutter.port}/mcp`),
				fetch: countingFetch,
				timeout: REQUEST_TIMEOUT_MS,
			},
		},
	});
	const notifications = [];
	try {
		const resources = (await mcp.resources.list())[SERVER] ?? [];
		const uris = resources.map((r) => r.uri);
		for (const uri of [COLLECTION, 'catalog://products/1', 'catalog://products/5']) {
			if (!uris.includes(uri)) {
				fail(`resources/list lacks ${uri}: ${uris.join(', ')}`);
			}
		}
		if (!methods.includes('server/discover')) {
			fail(`the client did not probe with server/discover (sent: ${methods.join(', ')})`);
		}
		const templates = ((await mcp.resources.templates())[SERVER] ?? []).map((t) => t.uriTemplate);
		if (!templates.includes('catalog://products/{id}')) {
			fail(`resources/templates/list lacks catalog://products/{id}: ${templates.join(', ')}`);
		}
		const read = await mcp.resources.read(SERVER, 'catalog://products/3');
		if (!(read.contents?.[0]?.text ?? '').includes('"id":3')) {
			fail(`resources/read catalog://products/3: ${JSON.stringify(read).slice(0, 200)}`);
		}
		const prompt = await mcp.prompts.get({
			serverName: SERVER,
			name: 'test_prompt_with_arguments',
			args: { arg1: 'test', arg2: 'mastra' },
		});
		const promptText = prompt.messages?.[0]?.content?.text;
		if (promptText !== "Prompt with arguments: arg1='test', arg2='mastra'") {
			fail(`prompts/get test_prompt_with_arguments: ${JSON.stringify(prompt).slice(0, 300)}`);
		}

		await mcp.resources.onUpdated(SERVER, (params) => {
			log(`notifications/resources/updated ${JSON.stringify(params)}`);
			notifications.push(params.uri);
		});
		await mcp.resources.subscribe(SERVER, COLLECTION);
		await mcp.resources.subscribe(SERVER, PRODUCT);
		const listensBefore = methods.filter((m) => m === 'subscriptions/listen').length;
		log(`subscribed (${listensBefore} subscriptions/listen so far); protocol ${[...protocols].join(', ')}`);
		if (!protocols.has('2026-07-28')) {
			fail(`the client did not speak 2026-07-28 (MCP-Protocol-Version: ${[...protocols].join(', ') || 'none'})`);
		}
		// Each subscribe replaced the stream (Mastra opens the new one before closing the old):
		// once subscribe has returned, one stream with both URIs is open.
		const of = (uri) => notifications.filter((n) => n === uri).length;
		await rename(base, 2);
		await rename(base, 3);
		const changedAt = Date.now();
		await rename(base, 4);
		if (!(await until(() => of('catalog://products/4') >= 1, NOTIFICATION_WAIT_MS))) {
			fail(`within ${NOTIFICATION_WAIT_MS / 1000} s not every notification arrived (received: ${notifications.join(', ') || 'none'})`);
		}
		const latency = Date.now() - changedAt;
		for (const id of [2, 3, 4]) {
			if (of(`catalog://products/${id}`) !== 1) {
				fail(`expected exactly one notification for catalog://products/${id}, got: ${notifications.join(', ')}`);
			}
		}

		// The cut: every connection under the client is closed, the listen stream's with them.
		const listensAtCut = methods.filter((m) => m === 'subscriptions/listen').length;
		cutter.cut();
		log('cut every connection under the client');
		await sleep(AFTER_CUT_MS);
		const relistenedAlone = methods.filter((m) => m === 'subscriptions/listen').length > listensAtCut;
		await rename(base, 5);
		const resumedAlone = await until(() => of('catalog://products/5') >= 1, 3_000);
		// What the application can do: an ordinary request (on a new connection), then
		// subscribing again, which opens a new listen stream.
		const readAfter = await mcp.resources.read(SERVER, 'catalog://products/5');
		if (!readAfter.contents?.length) {
			fail('resources/read after the cut returned nothing');
		}
		await mcp.resources.unsubscribe(SERVER, PRODUCT);
		await mcp.resources.subscribe(SERVER, PRODUCT);
		const before5 = of('catalog://products/5');
		await rename(base, 5);
		const resumedAfterSubscribe = await until(() => of('catalog://products/5') > before5, NOTIFICATION_WAIT_MS);
		const observed =
			`after the cut: listened again by itself: ${relistenedAlone ? 'yes' : 'no'}; ` +
			`a change then: ${resumedAlone ? 'delivered' : 'not delivered'}; ` +
			`requests: work; after subscribing again: ${resumedAfterSubscribe ? 'delivered' : 'not delivered'}`;
		log(observed);
		// The behaviour docs/tested-clients.md describes for the pinned version.
		if (relistenedAlone || resumedAlone || !resumedAfterSubscribe) {
			fail(`the client's behaviour after a cut changed (${observed}): update docs/tested-clients.md and this check`);
		}
		return (
			`@mastra/mcp ${version('@mastra/mcp')} on @modelcontextprotocol/client ${version('@modelcontextprotocol/client')}, ` +
			`protocol 2026-07-28: one notification each for products 2, 3, 4, all in within ${latency} ms; prompts/get OK; ` +
			`${observed}; ${Date.now() - started} ms`
		);
	} finally {
		await mcp.disconnect().catch(() => {});
		cutter.close();
	}
}

async function main() {
	let watchdog;
	try {
		if (!baseArg) {
			fail('usage: node subscribe.mjs <server base URL>');
		}
		const base = new URL(baseArg).href.replace(/\/+$/, '');
		const summary = await Promise.race([
			run(base),
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
