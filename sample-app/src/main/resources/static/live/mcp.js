// A small MCP client for the browser, for both protocol eras the server speaks on /mcp:
// 2026-07-28 (stateless requests, subscriptions/listen answered with an SSE stream) and
// 2025-11-25 (initialize, Mcp-Session-Id, resources/subscribe, the session's GET stream).
// Same origin only: the endpoint's DNS-rebinding protection accepts loopback origins.

import { readSse } from './sse.js';

export const PROTOCOL_2026 = '2026-07-28';
export const PROTOCOL_2025 = '2025-11-25';

/** The SEP "Resource Subscription Correlation" capability: one notification per matching subscription, each with subscribedUri. */
const CORRELATION = 'io.github.mcpsubscriptions/correlation';
const CLIENT_INFO = { name: 'mcp-subscriptions live page', version: '1' };
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A refused request: `status` is the HTTP status, `code` and `data` the JSON-RPC error's, when there is one. */
export class McpError extends Error {
	constructor(message, { status, code, data } = {}) {
		super(message);
		this.status = status;
		this.code = code;
		this.data = data;
	}

	get unauthorized() {
		return this.status === 401 || this.status === 403;
	}
}

/**
 * What both eras share: JSON-RPC over POST, answers as JSON or as an SSE stream, the bearer
 * token of profile "secure". `onMessage(message)` gets every server-to-client notification;
 * `onState(text, state)` tells what the client is doing.
 */
class Client {
	constructor({ endpoint = '/mcp', token = () => '', onMessage = () => {}, onState = () => {} }) {
		this.endpoint = endpoint;
		this.token = token;
		this.onMessage = onMessage;
		this.onState = onState;
		this.ids = 0;
		this.closed = false;
	}

	headers(extra = {}) {
		const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extra };
		const token = this.token();
		if (token) {
			headers.Authorization = `Bearer ${token}`;
		}
		return headers;
	}

	/** POSTs one message; returns the JSON-RPC answer (or null for 202), read from JSON or from an SSE stream. */
	async post(message, headers, { signal } = {}) {
		const response = await fetch(this.endpoint, {
			method: 'POST',
			headers: this.headers(headers),
			body: JSON.stringify(message),
			signal,
		});
		if (response.status === 202) {
			return { response, answer: null };
		}
		const type = response.headers.get('Content-Type') || '';
		if (type.startsWith('text/event-stream')) {
			let answer = null;
			await readSse(response, {
				signal,
				onEvent: (event) => {
					if (!event.data) {
						return;
					}
					const parsed = JSON.parse(event.data);
					if ('id' in parsed && parsed.id === message.id && !parsed.method) {
						answer = parsed;
					} else {
						this.onMessage(parsed);
					}
				},
			});
			return { response, answer };
		}
		let answer = null;
		if (type.includes('json')) {
			answer = await response.json();
		}
		if (!response.ok && !answer?.error) {
			throw new McpError(`HTTP ${response.status}`, { status: response.status });
		}
		return { response, answer };
	}

	/** The result of `answer`, or an McpError carrying its error. */
	static result(answer, response) {
		if (answer?.error) {
			const { message, code, data } = answer.error;
			throw new McpError(`${message} (${code})`, { status: response.status, code, data });
		}
		if (!answer) {
			throw new McpError(`no answer (HTTP ${response.status})`, { status: response.status });
		}
		return answer.result;
	}

	nextId() {
		this.ids += 1;
		return this.ids;
	}

	/** The JSON text of a resources/read result's first contents, parsed when it is JSON. */
	static contents(result) {
		const first = result?.contents?.[0];
		if (!first) {
			return undefined;
		}
		if (first.text !== undefined) {
			const json = (first.mimeType || '').includes('json');
			return { ...first, value: json ? JSON.parse(first.text) : first.text };
		}
		return { ...first, value: `(${first.mimeType || 'binary'}, ${Math.floor((first.blob.length * 3) / 4)} bytes)` };
	}

	async read(uri) {
		return Client.contents(await this.request('resources/read', { uri }));
	}

	async list() {
		const resources = [];
		let cursor;
		// A few pages at most: the sample lists its products and files in one.
		for (let page = 0; page < 5; page++) {
			const result = await this.request('resources/list', cursor ? { cursor } : {});
			resources.push(...result.resources);
			cursor = result.nextCursor;
			if (!cursor) {
				break;
			}
		}
		return resources;
	}
}

/** `Mcp-Name` carries a URI as it is when it is printable ASCII, else as `=?base64?…?=` of its UTF-8 bytes. */
function headerValue(value) {
	if (/^[\x20-\x7e]*$/.test(value) && value.trim() === value) {
		return value;
	}
	const bytes = new TextEncoder().encode(value);
	let binary = '';
	bytes.forEach((byte) => {
		binary += String.fromCharCode(byte);
	});
	return `=?base64?${btoa(binary)}?=`;
}

const sleep = (ms, signal) =>
	new Promise((resolve) => {
		const timer = setTimeout(resolve, ms);
		signal?.addEventListener('abort', () => {
			clearTimeout(timer);
			resolve();
		});
	});

/**
 * The 2026 era: no handshake, every request names the protocol version in its headers and its
 * `_meta`; subscriptions are the filter of one `subscriptions/listen` request, whose response is
 * the stream of notifications. Changing what is subscribed opens a new listen stream (the old
 * one is closed once the new one is acknowledged, so no change falls between the two).
 */
export class Mcp2026 extends Client {
	era = '2026';

	meta() {
		return {
			'io.modelcontextprotocol/protocolVersion': PROTOCOL_2026,
			'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
			'io.modelcontextprotocol/clientCapabilities': { extensions: { [CORRELATION]: {} } },
		};
	}

	requestHeaders(method, params) {
		const headers = { 'MCP-Protocol-Version': PROTOCOL_2026, 'Mcp-Method': method };
		if (method === 'resources/read') {
			headers['Mcp-Name'] = headerValue(params.uri);
		}
		return headers;
	}

	async request(method, params = {}) {
		const message = { jsonrpc: '2.0', id: this.nextId(), method, params: { ...params, _meta: this.meta() } };
		const { response, answer } = await this.post(message, this.requestHeaders(method, params));
		return Client.result(answer, response);
	}

	async connect() {
		this.server = await this.request('server/discover');
		this.onState(`2026 era: stateless, server ${this.server._meta?.['io.modelcontextprotocol/serverInfo']?.name ?? ''}`, 'connected');
		return this.server;
	}

	/** Listens to exactly `uris` (and to list changes); resolves with the URIs the server honours. */
	async subscribe(uris) {
		const previous = this.stream;
		const stream = this.listen([...uris]);
		this.stream = stream;
		try {
			const honoured = await stream.acknowledged;
			return honoured;
		} finally {
			previous?.close();
		}
	}

	listen(uris) {
		const controller = new AbortController();
		const id = `listen-${this.nextId()}`;
		let acknowledge;
		let refuse;
		const stream = {
			id,
			uris,
			acknowledged: new Promise((resolve, reject) => {
				acknowledge = resolve;
				refuse = reject;
			}),
			close: () => controller.abort(),
		};
		stream.acknowledged.catch(() => {});
		const run = async () => {
			let delay = 1000;
			while (!controller.signal.aborted && !this.closed) {
				let ended = 'the stream ended';
				try {
					const message = {
						jsonrpc: '2.0',
						id,
						method: 'subscriptions/listen',
						params: { notifications: { resourceSubscriptions: uris, resourcesListChanged: true }, _meta: this.meta() },
					};
					const response = await fetch(this.endpoint, {
						method: 'POST',
						headers: this.headers(this.requestHeaders('subscriptions/listen', message.params)),
						body: JSON.stringify(message),
						signal: controller.signal,
					});
					const type = response.headers.get('Content-Type') || '';
					if (!type.startsWith('text/event-stream')) {
						const answer = type.includes('json') ? await response.json() : null;
						const error = answer?.error;
						const failure = new McpError(error ? `${error.message} (${error.code})` : `HTTP ${response.status}`, {
							status: response.status,
							code: error?.code,
							data: error?.data,
						});
						if (failure.unauthorized || response.status === 400 || response.status === 404) {
							refuse(failure);
							this.onState(`listen refused: ${failure.message}`, 'error');
							return;
						}
						// 429 and 503 say when to come back.
						delay = Number(response.headers.get('Retry-After') || 1) * 1000;
						throw failure;
					}
					delay = 1000;
					await readSse(response, {
						signal: controller.signal,
						onEvent: (event) => {
							if (!event.data) {
								return;
							}
							const parsed = JSON.parse(event.data);
							if (parsed.method === 'notifications/subscriptions/acknowledged') {
								stream.honoured = parsed.params.notifications.resourceSubscriptions || [];
								acknowledge(stream.honoured);
								this.onState(`2026 era: listening (subscriptionId ${parsed.params._meta?.[SUBSCRIPTION_ID]})`, 'live');
							} else if (parsed.id === id && !parsed.method) {
								// The listen request's completion result: the server ends the stream (shutdown, max duration).
								ended = 'the server completed the listen request';
							} else if (parsed.method) {
								this.onMessage(parsed);
							}
						},
					});
				} catch (error) {
					if (controller.signal.aborted || this.closed) {
						return;
					}
					ended = error.message;
				}
				if (controller.signal.aborted || this.closed) {
					return;
				}
				this.onState(`2026 era: ${ended}; listening again in ${Math.round(delay / 1000)} s`, 'reconnecting');
				await sleep(delay, controller.signal);
				delay = Math.min(delay * 2, 30000);
			}
		};
		run();
		return stream;
	}

	close() {
		this.closed = true;
		this.stream?.close();
	}
}

/**
 * The 2025 era: `initialize` opens a session (its id in the Mcp-Session-Id header),
 * `resources/subscribe` adds to it, and the session's GET stream delivers, with SSE ids that a
 * reconnection names in Last-Event-ID so that nothing is lost in between.
 */
export class Mcp2025 extends Client {
	era = '2025';

	subscribed = new Set();

	async connect() {
		const message = {
			jsonrpc: '2.0',
			id: this.nextId(),
			method: 'initialize',
			params: {
				protocolVersion: PROTOCOL_2025,
				capabilities: { experimental: { [CORRELATION]: {} } },
				clientInfo: CLIENT_INFO,
			},
		};
		const { response, answer } = await this.post(message, {});
		this.server = Client.result(answer, response);
		this.sessionId = response.headers.get('Mcp-Session-Id');
		if (!this.sessionId) {
			throw new McpError('initialize answered without an Mcp-Session-Id');
		}
		await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, this.sessionHeaders());
		this.openStream();
		await this.streamOpen;
		this.onState(`2025 era: session ${this.sessionId.slice(0, 8)}…, GET stream open`, 'live');
		return this.server;
	}

	sessionHeaders() {
		return { 'Mcp-Session-Id': this.sessionId, 'MCP-Protocol-Version': PROTOCOL_2025 };
	}

	async request(method, params = {}, retried = false) {
		const message = { jsonrpc: '2.0', id: this.nextId(), method, params };
		try {
			const { response, answer } = await this.post(message, this.sessionHeaders());
			return Client.result(answer, response);
		} catch (error) {
			// 404: the session expired or was closed (by the Actuator, a restart): start a new one.
			if (error.status === 404 && error.code === -32001 && !retried && !this.closed) {
				await this.reconnect();
				return this.request(method, params, true);
			}
			throw error;
		}
	}

	async reconnect() {
		this.onState('2025 era: the session is gone; starting a new one', 'reconnecting');
		this.streamController?.abort();
		const uris = [...this.subscribed];
		this.subscribed.clear();
		this.lastEventId = undefined;
		await this.connect();
		await this.subscribe(uris);
	}

	openStream() {
		const controller = new AbortController();
		this.streamController = controller;
		let opened;
		this.streamOpen = new Promise((resolve) => {
			opened = resolve;
		});
		const run = async () => {
			let retry = 1000;
			while (!controller.signal.aborted && !this.closed) {
				let ended = 'the stream ended';
				try {
					const headers = { ...this.sessionHeaders(), Accept: 'text/event-stream' };
					if (this.lastEventId) {
						headers['Last-Event-ID'] = this.lastEventId;
					}
					const token = this.token();
					if (token) {
						headers.Authorization = `Bearer ${token}`;
					}
					const response = await fetch(this.endpoint, { method: 'GET', headers, signal: controller.signal });
					if (response.status === 404) {
						opened();
						if (!controller.signal.aborted) {
							this.reconnect().catch((error) => this.onState(`2025 era: ${error.message}`, 'error'));
						}
						return;
					}
					if (!response.ok) {
						throw new McpError(`GET stream: HTTP ${response.status}`, { status: response.status });
					}
					opened();
					await readSse(response, {
						signal: controller.signal,
						onEvent: (event) => {
							if (event.id) {
								this.lastEventId = event.id;
							}
							if (event.retry !== undefined && event.retry > 0) {
								retry = event.retry;
							}
							if (event.data) {
								this.onMessage(JSON.parse(event.data));
							}
						},
					});
				} catch (error) {
					if (controller.signal.aborted || this.closed) {
						return;
					}
					ended = error.message;
				}
				if (controller.signal.aborted || this.closed) {
					return;
				}
				this.onState(`2025 era: ${ended}; resuming after ${this.lastEventId ?? 'the start'} in ${retry} ms`, 'reconnecting');
				await sleep(retry, controller.signal);
			}
		};
		run();
	}

	/** Subscribes to what is new in `uris` and unsubscribes from what is no longer there; resolves with the URIs subscribed. */
	async subscribe(uris) {
		const wanted = new Set(uris);
		const refused = [];
		for (const uri of wanted) {
			if (!this.subscribed.has(uri)) {
				try {
					await this.request('resources/subscribe', { uri });
					this.subscribed.add(uri);
				} catch (error) {
					if (error.unauthorized) {
						throw error;
					}
					refused.push(`${uri}: ${error.message}`);
				}
			}
		}
		for (const uri of [...this.subscribed]) {
			if (!wanted.has(uri)) {
				await this.request('resources/unsubscribe', { uri });
				this.subscribed.delete(uri);
			}
		}
		if (refused.length) {
			this.onState(`2025 era: refused ${refused.join('; ')}`, 'live');
		}
		return [...this.subscribed];
	}

	close() {
		this.closed = true;
		this.streamController?.abort();
		if (this.sessionId) {
			// keepalive: the DELETE still goes out when the page is being unloaded.
			const headers = this.sessionHeaders();
			const token = this.token();
			if (token) {
				headers.Authorization = `Bearer ${token}`;
			}
			fetch(this.endpoint, { method: 'DELETE', headers, keepalive: true }).catch(() => {});
		}
	}
}
