// The live page: the catalogue's REST API and the watched directory on one side, an MCP client
// on the other that subscribes to what is ticked, shows each notification as it arrives and
// re-reads the resource through MCP. Plain modules, no build step, nothing from the network
// but this server.

import { pollEvents } from './events.js';
import { Mcp2025, Mcp2026 } from './mcp.js';
import { METERS, pollMeters } from './meters.js';

const $ = (selector, root = document) => root.querySelector(selector);
const TOKEN_KEY = 'mcp-live-token';
const MAX_ROWS = 200;
const PRODUCT = /^catalog:\/\/products\/(\d+)$/;

const token = () => sessionStorage.getItem(TOKEN_KEY) || '';
const authHeaders = () => (token() ? { Authorization: `Bearer ${token()}` } : {});

let stopMeters = () => {};

const state = {
	client: null,
	generation: 0,
	rootUri: null,
	/** Product id -> the product as last read through MCP. */
	products: new Map(),
	/** File URI -> its text as last read through MCP. */
	files: new Map(),
	/** Product ids ticked in the table. */
	watched: new Set(),
	/** URI -> the re-read in flight, shared by the notifications of one change (one per matching subscription). */
	reads: new Map(),
	subscribing: Promise.resolve(),
};

// --- status and errors -------------------------------------------------------------------

function status(text, kind) {
	const element = $('#mcp-status');
	element.textContent = text;
	element.dataset.state = kind;
}

function failed(error, where) {
	if (error?.unauthorized) {
		$('#auth-needed').hidden = false;
		status(`${where}: HTTP ${error.status}: this server wants a bearer token`, 'unauthorized');
		return;
	}
	status(`${where}: ${error?.message ?? error}`, 'error');
	console.error(where, error);
}

class HttpError extends Error {
	constructor(response, text) {
		super(`HTTP ${response.status}${text ? `: ${text}` : ''}`);
		this.status = response.status;
	}

	get unauthorized() {
		return this.status === 401 || this.status === 403;
	}
}

async function rest(path, options = {}) {
	const headers = { ...authHeaders(), ...(options.body ? { 'Content-Type': 'application/json' } : {}) };
	const response = await fetch(path, { ...options, headers });
	if (!response.ok) {
		let text = '';
		try {
			const body = await response.json();
			text = body.message || body.error || '';
		} catch {
			// Not JSON: the status says enough.
		}
		throw new HttpError(response, text);
	}
	return response.status === 204 ? null : response.json();
}

// --- formatting and highlighting ---------------------------------------------------------

const price = (value) => (value === undefined || value === null ? '' : Number(value).toFixed(2));

function time(date = new Date()) {
	const pad = (n, width = 2) => String(n).padStart(width, '0');
	return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function flash(element) {
	element.classList.remove('changed');
	// Reading the layout restarts the animation when the class comes back.
	void element.offsetWidth;
	element.classList.add('changed');
}

function cell(row, text, field) {
	const td = row.insertCell();
	td.textContent = text;
	if (field) {
		td.dataset.field = field;
	}
	return td;
}

// --- the catalogue through the REST API (left) --------------------------------------------

function restRow(product) {
	const body = $('#rest-products tbody');
	let row = $(`tr[data-id="${product.id}"]`, body);
	if (!row) {
		row = document.createElement('tr');
		row.dataset.id = product.id;
		row.innerHTML = `<td><input type="checkbox" name="watch" aria-label="subscribe to product ${product.id}"></td>
			<td>${product.id}</td>
			<td><input name="name" aria-label="name of product ${product.id}"></td>
			<td><input name="price" type="number" min="0" step="0.01" aria-label="price of product ${product.id}"></td>
			<td class="actions"><button type="button" name="save">Save</button> <button type="button" name="delete" title="delete">✕</button><span class="error"></span></td>`;
		const rows = [...body.rows];
		const before = rows.find((other) => Number(other.dataset.id) > product.id);
		body.insertBefore(row, before ?? null);
		$('input[name="watch"]', row).checked = state.watched.has(product.id);
		$('input[name="watch"]', row).addEventListener('change', (event) => {
			if (event.target.checked) {
				state.watched.add(product.id);
			} else {
				state.watched.delete(product.id);
			}
			resubscribe();
		});
		for (const input of row.querySelectorAll('input[name="name"], input[name="price"]')) {
			input.addEventListener('input', () => {
				row.dataset.dirty = '';
			});
			input.addEventListener('keydown', (event) => {
				if (event.key === 'Enter') {
					save(row);
				}
			});
		}
		$('button[name="save"]', row).addEventListener('click', () => save(row));
		$('button[name="delete"]', row).addEventListener('click', () => remove(row));
	}
	$('input[name="name"]', row).value = product.name;
	$('input[name="price"]', row).value = price(product.price);
	delete row.dataset.dirty;
	return row;
}

async function save(row) {
	const error = $('.error', row);
	error.textContent = '';
	try {
		const product = await rest(`/api/products/${row.dataset.id}`, {
			method: 'PUT',
			body: JSON.stringify({ name: $('input[name="name"]', row).value, price: $('input[name="price"]', row).value }),
		});
		restRow(product);
	} catch (failure) {
		error.textContent = failure.message;
		if (failure.unauthorized) {
			failed(failure, 'PUT /api/products');
		}
	}
}

async function remove(row) {
	try {
		await rest(`/api/products/${row.dataset.id}`, { method: 'DELETE' });
		row.remove();
	} catch (failure) {
		$('.error', row).textContent = failure.message;
	}
}

async function add() {
	const foot = $('#rest-products tfoot');
	const error = $('#rest-error');
	error.hidden = true;
	try {
		const product = await rest('/api/products', {
			method: 'POST',
			body: JSON.stringify({ name: $('input[name="name"]', foot).value, price: $('input[name="price"]', foot).value }),
		});
		restRow(product);
		$('input[name="name"]', foot).value = '';
		$('input[name="price"]', foot).value = '';
	} catch (failure) {
		error.textContent = `POST /api/products: ${failure.message}`;
		error.hidden = false;
	}
}

async function loadCatalogue() {
	try {
		for (const product of await rest('/api/products')) {
			restRow(product);
		}
	} catch (failure) {
		failed(failure, 'GET /api/products');
	}
}

/** Brings a row of the editable table up to date after a notification, unless someone is editing it. */
async function refreshRestRow(id) {
	const row = $(`#rest-products tbody tr[data-id="${id}"]`);
	if (row && (row.hasAttribute('data-dirty') || row.contains(document.activeElement))) {
		return;
	}
	try {
		restRow(await rest(`/api/products/${id}`));
	} catch (failure) {
		if (failure.status === 404) {
			row?.remove();
		}
	}
}

// --- what MCP reads (right) -----------------------------------------------------------------

const notFound = (error) => error?.code === -32002 || (error?.code === -32602 && error?.data?.uri);

/** Shows `product` as read through MCP; returns what changed since the previous read. */
function showProduct(product) {
	const body = $('#mcp-products tbody');
	const previous = state.products.get(product.id);
	let row = $(`tr[data-id="${product.id}"]`, body);
	if (!row) {
		row = document.createElement('tr');
		row.dataset.id = product.id;
		cell(row, product.id, 'id');
		cell(row, '', 'name');
		cell(row, '', 'price');
		const before = [...body.rows].find((other) => Number(other.dataset.id) > product.id);
		body.insertBefore(row, before ?? null);
	}
	const changes = [];
	for (const [field, text] of [['name', product.name], ['price', price(product.price)]]) {
		const td = $(`td[data-field="${field}"]`, row);
		const before = previous ? (field === 'price' ? price(previous.price) : previous.name) : undefined;
		td.textContent = text;
		if (previous && before !== text) {
			changes.push(`${field}: ${before} → ${text}`);
			flash(td);
		}
	}
	state.products.set(product.id, product);
	if (!previous) {
		flash(row);
		return `new: ${product.name}, ${price(product.price)}`;
	}
	return changes.length ? changes.join('; ') : 'no change since the last read';
}

function dropProduct(id) {
	state.products.delete(id);
	$(`#mcp-products tbody tr[data-id="${id}"]`)?.remove();
}

async function readCollection(initial) {
	const { value } = await state.client.read('catalog://products');
	const seen = new Set();
	const changes = [];
	for (const product of value) {
		seen.add(product.id);
		const change = showProduct(product);
		if (!initial && change !== 'no change since the last read') {
			changes.push(`#${product.id} ${change}`);
		}
	}
	for (const id of [...state.products.keys()]) {
		if (!seen.has(id)) {
			dropProduct(id);
			changes.push(`#${id} gone`);
		}
	}
	return changes.length ? changes.join('; ') : `${value.length} products, no change since the last read`;
}

async function readFile(uri) {
	const previous = state.files.get(uri);
	try {
		const { value } = await state.client.read(uri);
		const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
		state.files.set(uri, text);
		$('#file-uri').textContent = uri;
		$('#file-view').textContent = text;
		flash($('#file-view'));
		if (previous === undefined) {
			return `${text.length} characters`;
		}
		return previous === text ? 'no change since the last read' : `${previous.length} → ${text.length} characters`;
	} catch (error) {
		if (notFound(error)) {
			state.files.delete(uri);
			return 'gone (deleted)';
		}
		throw error;
	}
}

async function refreshFiles() {
	const list = $('#files');
	if (!state.rootUri) {
		list.replaceChildren();
		return 'the directory is not readable here';
	}
	const { value } = await state.client.read(state.rootUri);
	list.replaceChildren(
		...value.map((path) => {
			const item = document.createElement('li');
			const link = document.createElement('a');
			link.textContent = path;
			link.addEventListener('click', () => readFile(state.rootUri + encodePath(path)).catch((e) => failed(e, 'resources/read')));
			item.append(link);
			return item;
		}),
	);
	return `${value.length} files`;
}

/** A relative path as the server spells it in file URIs (WatchedDirectory.encode). */
function encodePath(path) {
	return [...new TextEncoder().encode(path)]
		.map((byte) => {
			const c = String.fromCharCode(byte);
			return /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
		})
		.join('');
}

/** Re-reads what a notification names, through MCP; resolves with what changed. */
function reread(uri, meta) {
	const pending = state.reads.get(uri);
	if (pending) {
		return pending;
	}
	const read = (async () => {
		const product = PRODUCT.exec(uri);
		if (product) {
			const id = Number(product[1]);
			refreshRestRow(id);
			try {
				return showProduct((await state.client.read(uri)).value);
			} catch (error) {
				if (notFound(error)) {
					dropProduct(id);
					return 'gone (deleted)';
				}
				throw error;
			}
		}
		if (uri === 'catalog://products') {
			return readCollection(false);
		}
		if (state.rootUri && (uri === state.rootUri || uri.startsWith(`${state.rootUri}?`))) {
			return refreshFiles();
		}
		if (uri.startsWith('file:')) {
			if (meta?.change === 'created' || meta?.change === 'deleted') {
				refreshFiles().catch(() => {});
			}
			return readFile(uri);
		}
		return (await state.client.read(uri)) ? 'read' : 'nothing';
	})();
	state.reads.set(uri, read);
	read.finally(() => state.reads.delete(uri));
	return read;
}

function logRow(uri, subscribedUri, meta, kind) {
	const body = $('#log tbody');
	const row = body.insertRow(0);
	row.className = kind;
	row.dataset.uri = uri ?? '';
	row.dataset.subscribedUri = subscribedUri ?? '';
	cell(row, time(), 'time');
	cell(row, uri ?? '', 'uri');
	cell(row, subscribedUri ?? '', 'subscribedUri');
	cell(row, meta ? JSON.stringify(meta) : '', 'meta');
	const result = cell(row, kind === 'note' ? 'reading…' : '', 'reread');
	flash(row);
	while (body.rows.length > MAX_ROWS) {
		body.deleteRow(-1);
	}
	return result;
}

function onMessage(message) {
	if (message.method === 'notifications/resources/updated') {
		const { uri, subscribedUri, _meta: meta } = message.params;
		const result = logRow(uri, subscribedUri, meta, 'note');
		reread(uri, meta).then(
			(change) => {
				result.textContent = change;
				result.dataset.done = '';
			},
			(error) => {
				result.textContent = `read failed: ${error.message}`;
				result.classList.add('error');
			},
		);
	} else if (message.method === 'notifications/resources/list_changed') {
		logRow('(resource list changed)', '', message.params?._meta, 'list-changed');
		refreshFiles().catch(() => {});
	}
}

// --- subscriptions ----------------------------------------------------------------------------

function wantedUris() {
	const uris = [];
	if ($('#watch-catalogue').checked) {
		uris.push('catalog://products');
	}
	for (const id of [...state.watched].sort((a, b) => a - b)) {
		uris.push(`catalog://products/${id}`);
	}
	if (state.rootUri) {
		if ($('#watch-directory').checked) {
			uris.push(state.rootUri);
		}
		const pattern = $('#pattern').value.trim();
		if ($('#watch-pattern').checked && pattern) {
			uris.push(`${state.rootUri}?pattern=${pattern}`);
		}
	}
	return uris;
}

function showSubscriptions(wanted, honoured, era) {
	const list = document.createElement('ul');
	for (const uri of wanted) {
		const item = document.createElement('li');
		item.dataset.uri = uri;
		item.textContent = uri;
		const ok = honoured.includes(uri);
		item.className = ok ? 'honoured' : 'refused';
		item.title = ok ? 'subscribed' : 'not honoured by the server (invalid, covers nothing, or not allowed)';
		list.append(item);
	}
	const target = $('#subscriptions');
	target.replaceChildren(wanted.length ? list : 'nothing');
	target.dataset.era = era;
}

/** Applies the ticks to the MCP client, one change at a time. */
function resubscribe() {
	const client = state.client;
	state.subscribing = state.subscribing.then(async () => {
		if (client !== state.client || !client) {
			return;
		}
		const wanted = wantedUris();
		try {
			const honoured = await client.subscribe(wanted);
			if (client === state.client) {
				showSubscriptions(wanted, honoured, client.era);
			}
		} catch (error) {
			failed(error, 'subscribe');
		}
	});
	return state.subscribing;
}

// --- the MCP client's life --------------------------------------------------------------------

async function start(era) {
	const generation = ++state.generation;
	state.client?.close();
	$('#subscriptions').replaceChildren('nothing yet');
	delete $('#subscriptions').dataset.era;
	const Client = era === '2025' ? Mcp2025 : Mcp2026;
	const client = new Client({
		token,
		onMessage: (message) => generation === state.generation && onMessage(message),
		onState: (text, kind) => generation === state.generation && status(text, kind),
	});
	state.client = client;
	document.body.dataset.era = era;
	status(`${era} era: connecting…`, 'connecting');
	try {
		await client.connect();
		const resources = await client.list();
		state.rootUri = resources.find((r) => r.uri.startsWith('file:') && r.uri.endsWith('/'))?.uri ?? null;
		$('#root-uri').textContent = state.rootUri ?? '(not readable with this token)';
		await readCollection(true);
		await refreshFiles();
		await resubscribe();
	} catch (error) {
		if (generation === state.generation) {
			failed(error, `${era} era`);
		}
	}
}

function showMeters(values) {
	const list = $('#meters');
	if (!list.children.length) {
		for (const [key, { label }] of [...Object.entries(METERS), ['rate', { label: 'notifications / s' }]]) {
			const term = document.createElement('dt');
			term.textContent = label;
			const value = document.createElement('dd');
			value.dataset.key = key;
			list.append(term, value);
		}
	}
	for (const value of list.querySelectorAll('dd')) {
		const number = values[value.dataset.key];
		const text = number === null || number === undefined ? '–' : value.dataset.key === 'rate' ? number.toFixed(1) : String(Math.round(number));
		if (value.textContent !== text) {
			value.textContent = text;
			flash(value);
		}
	}
	list.title = values.status === 200 ? '' : `the Actuator answered ${values.status}`;
	if ((values.status === 401 || values.status === 403) && !token()) {
		// Profile "secure" without a token: asking again every second only fills the console.
		stopMeters();
	}
}

// --- events (the Events extension, polled) --------------------------------------------------

function showEvents(events, truncated) {
	const body = $('#events tbody');
	if (truncated) {
		const row = body.insertRow(0);
		row.className = 'truncated';
		cell(row, time(), 'time');
		const note = cell(row, 'events may have been skipped (truncated): polling on from a fresh cursor');
		note.colSpan = 5;
	}
	for (const event of events) {
		const { data } = event;
		const row = body.insertRow(0);
		row.dataset.eventId = event.eventId;
		row.dataset.id = data.id;
		row.dataset.change = data.change;
		cell(row, time(), 'time');
		cell(row, event.eventId, 'eventId');
		cell(row, data.change, 'change');
		cell(row, data.id, 'id');
		cell(row, data.name ?? '', 'name');
		cell(row, price(data.price), 'price');
		flash(row);
	}
	while (body.rows.length > MAX_ROWS) {
		body.deleteRow(-1);
	}
}

function startEvents() {
	const status = $('#events-status');
	const minPrice = $('#events-min-price');
	const poll = pollEvents(new Mcp2026({ token }), {
		name: 'catalog.product.changed',
		args: () => (minPrice.value.trim() === '' ? {} : { minPrice: Number(minPrice.value) }),
		onEvents: showEvents,
		onState: (text, kind) => {
			status.textContent = text;
			status.dataset.state = kind;
		},
	});
	minPrice.addEventListener('change', poll.again);
	window.addEventListener('pagehide', poll.stop);
}

function init() {
	for (const element of document.querySelectorAll('.origin')) {
		element.textContent = location.origin;
	}
	$('#token').value = token();
	$('#token-form').addEventListener('submit', (event) => {
		event.preventDefault();
		sessionStorage.setItem(TOKEN_KEY, $('#token').value.trim());
		location.reload();
	});
	$('#add').addEventListener('click', add);
	for (const box of ['#watch-catalogue', '#watch-directory', '#watch-pattern']) {
		$(box).addEventListener('change', resubscribe);
	}
	$('#pattern').addEventListener('change', () => $('#watch-pattern').checked && resubscribe());

	const params = new URLSearchParams(location.search);
	const era = params.get('era') === '2025' ? '2025' : '2026';
	$(`input[name="era"][value="${era}"]`).checked = true;
	for (const radio of document.querySelectorAll('input[name="era"]')) {
		radio.addEventListener('change', () => {
			const url = new URL(location.href);
			url.searchParams.set('era', radio.value);
			history.replaceState(null, '', url);
			start(radio.value);
		});
	}
	window.addEventListener('pagehide', () => state.client?.close());

	loadCatalogue();
	start(era);
	startEvents();
	stopMeters = pollMeters(showMeters, { headers: authHeaders });
}

init();
