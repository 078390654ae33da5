// The sample application's live page (/) in a real browser: Debian's chromium, headless,
// driven by playwright-core. Run by .ci/browser.sh, which starts the application:
//   node live-page.mjs <base URL> <watched directory> <results directory>
// In each protocol era (2026: subscriptions/listen; 2025: session and GET stream) it checks
// that the page subscribes to catalog://products by itself, that a price changed in the page's
// table and a product changed through the REST API (curl) each show up as a notification row
// and as the value re-read through MCP, that a ticked product and a ticked file pattern are
// subscribed to, and that the counters read the Actuator. The events panel polls
// catalog.product.changed (events/poll): the page's and curl's changes show as events, and a
// minPrice argument keeps out what does not match. Screenshots go to the results
// directory. Exits 0 when every check passes, 1 at the first that fails, and prints one line
// "browser: PASS (...)" or "browser: FAIL: <reason>".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [base, watched, results] = process.argv.slice(2);
if (!base || !watched || !results) {
	console.error('usage: node live-page.mjs <base URL> <watched directory> <results directory>');
	process.exit(2);
}
// How long a change may take to show in the page (notification row and re-read value). The
// page's promise is "within a second" (measured here: 50 to 550 ms, the slowest being the
// first change after start); the bound is twice that so that a loaded CI machine does not
// fail the build on a slow JIT warm-up. Each measured time is printed.
const LIMIT_MS = Number(process.env.BROWSER_LATENCY_LIMIT_MS || 2000);
const WAIT_MS = 15000;
const EXECUTABLE = process.env.CHROMIUM || '/usr/bin/chromium';

class CheckFailed extends Error {}
const check = (condition, message) => {
	if (!condition) {
		throw new CheckFailed(message);
	}
};
const log = (message) => console.log(`[browser] ${message}`);
const timings = [];

const profile = mkdtempSync(join(tmpdir(), 'mcp-live-chromium-'));
let context;
let page;
let status = 1;
try {
	context = await chromium.launchPersistentContext(profile, {
		executablePath: EXECUTABLE,
		headless: true,
		timeout: 30000,
		viewport: { width: 1400, height: 1000 },
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
		],
	});
	page = context.pages()[0] ?? (await context.newPage());
	page.setDefaultTimeout(WAIT_MS);
	const problems = [];
	page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
	page.on('console', (message) => {
		if (message.type() === 'error') {
			problems.push(`console error: ${message.text()}`);
		}
	});
	// Nothing but the application itself: no CDN, no other host.
	const foreign = [];
	page.on('request', (request) => {
		const url = request.url();
		if (!url.startsWith(base) && !url.startsWith('data:')) {
			foreign.push(url);
		}
	});

	const response = await page.goto(`${base}/`);
	check(response.status() === 200, `GET / answered ${response.status()}`);
	log(`opened ${base}/`);

	const subscribed = (era, uri) => page.locator(`#subscriptions[data-era="${era}"] li[data-uri="${uri}"].honoured`);
	const noteRow = (uri, subscribedUri) =>
		page.locator(`#log tr.note[data-uri="${uri}"][data-subscribed-uri="${subscribedUri}"]`).first();
	const mcpCell = (id, field) => page.locator(`#mcp-products tr[data-id="${id}"] td[data-field="${field}"]`);

	/** Waits for the notification row and the re-read value of a change made at `started`; records how long each took. */
	async function shows(what, started, uri, subscribedUri, field, expected) {
		const row = noteRow(uri, subscribedUri);
		await row.waitFor();
		const rowMs = Date.now() - started;
		await page.waitForFunction(
			([selector, text]) => document.querySelector(selector)?.textContent === text,
			[`#mcp-products tr[data-id="${uri.split('/').pop()}"] td[data-field="${field}"]`, expected],
			{ timeout: WAIT_MS },
		);
		const valueMs = Date.now() - started;
		await row.locator('td[data-field="reread"][data-done]').waitFor();
		const reread = await row.locator('td[data-field="reread"]').textContent();
		check(reread.includes(expected), `${what}: the row's re-read result "${reread}" does not name ${expected}`);
		const meta = JSON.parse(await row.locator('td[data-field="meta"]').textContent());
		check(meta.change === 'updated', `${what}: _meta ${JSON.stringify(meta)} lacks change=updated`);
		timings.push(`${what}: row ${rowMs} ms, re-read value ${valueMs} ms`);
		log(`${what}: notification row after ${rowMs} ms, re-read ${field} ${expected} after ${valueMs} ms (${reread})`);
		check(valueMs <= LIMIT_MS, `${what}: took ${valueMs} ms, more than ${LIMIT_MS} ms`);
		return meta;
	}

	async function changeInPage(what, id, newPrice) {
		const row = page.locator(`#rest-products tr[data-id="${id}"]`);
		await row.locator('input[name="price"]').fill(newPrice);
		const started = Date.now();
		await row.locator('button[name="save"]').click();
		return shows(what, started, `catalog://products/${id}`, 'catalog://products', 'price', newPrice);
	}

	function changeWithCurl(id, name, newPrice) {
		const started = Date.now();
		const body = execFileSync('curl', ['-sS', '--fail', '--max-time', '5', '-X', 'PUT', `${base}/api/products/${id}`,
			'-H', 'Content-Type: application/json', '-d', JSON.stringify({ name, price: Number(newPrice) })], { encoding: 'utf8' });
		check(JSON.parse(body).name === name, `curl PUT /api/products/${id} answered ${body}`);
		return started;
	}

	const eventRow = (id, change, priceText) =>
		page.locator(`#events tr[data-id="${id}"][data-change="${change}"]`).filter({
			has: page.locator(`td[data-field="price"]`, { hasText: priceText }),
		});

	/** Waits for the events panel to show a change made at `started`. */
	async function eventShows(what, started, id, priceText) {
		await eventRow(id, 'updated', priceText).first().waitFor();
		const ms = Date.now() - started;
		const eventId = await eventRow(id, 'updated', priceText).first().getAttribute('data-event-id');
		check(eventId, `${what}: the event row has no eventId`);
		timings.push(`${what}: event ${ms} ms`);
		log(`${what}: event ${eventId} shown after ${ms} ms`);
	}

	async function events() {
		await page.waitForFunction(() => document.querySelector('#events-status')?.dataset.state === 'live');
		// The price changed in the page (2026 era) is an event too.
		await eventRow(3, 'updated', '11.15').first().waitFor();
		log('events: the change made in the page is an event');
		// minPrice: only what matches from now on (a new subscription starts from now).
		const minPrice = page.locator('#events-min-price');
		await minPrice.fill('1000');
		await minPrice.dispatchEvent('change');
		await page.waitForFunction(() => document.querySelector('#events-status')?.textContent.includes('"minPrice":1000'));
		changeWithCurl(4, 'Cheap mug', '5.00');
		const started = changeWithCurl(1, 'Gold lamp', '1500.00');
		await eventShows('events, minPrice 1000, product changed with curl', started, 1, '1500.00');
		// Product 4's change came first: had it matched, it would show by now.
		check((await eventRow(4, 'updated', '5.00').count()) === 0, 'events: minPrice 1000 let a product at 5.00 through');
		await minPrice.fill('');
		await minPrice.dispatchEvent('change');
		await page.waitForFunction(() => document.querySelector('#events-status')?.textContent.includes('{}'));
		const cheap = changeWithCurl(4, 'Cheap mug', '6.00');
		await eventShows('events, no arguments, product changed with curl', cheap, 4, '6.00');
	}

	async function meterAtLeast(key, minimum) {
		await page.waitForFunction(
			([selector, min]) => Number(document.querySelector(selector)?.textContent) >= min,
			[`#meters dd[data-key="${key}"]`, minimum],
			{ timeout: WAIT_MS },
		);
	}

	async function era(name, first) {
		if (!first) {
			await page.locator(`input[name="era"][value="${name}"]`).check();
		}
		// Subscribed to the whole catalogue without a click (and to product 2, ticked in the first era).
		await subscribed(name, 'catalog://products').waitFor();
		log(`${name} era: subscribed to catalog://products on its own`);
		if (first) {
			await page.locator('#rest-products tr[data-id="2"] input[name="watch"]').check();
		}
		await subscribed(name, 'catalog://products/2').waitFor();
		check((await page.locator('#mcp-status').getAttribute('data-state')) === 'live',
			`${name} era: status is ${await page.locator('#mcp-status').textContent()}`);

		const tag = name === '2026' ? 1 : 2;
		const meta = await changeInPage(`${name} era, price changed in the page`, 3, `${tag}${tag}.${tag}5`);
		if (name === '2026') {
			check(meta['io.modelcontextprotocol/subscriptionId'], `2026 era: _meta lacks the subscriptionId: ${JSON.stringify(meta)}`);
		}

		const newName = `Curl pen ${name}`;
		const started = changeWithCurl(2, newName, `${tag}0.00`);
		await shows(`${name} era, product changed with curl`, started, 'catalog://products/2', 'catalog://products', 'name', newName);
		// Ticked: the product's own subscription hears of it too, as its own row.
		await noteRow('catalog://products/2', 'catalog://products/2').waitFor();
		check((await mcpCell(2, 'price').textContent()) === `${tag}0.00`, `${name} era: product 2's price was not re-read`);

		// A file pattern, ticked.
		const pattern = page.locator('#watch-pattern');
		if (!(await pattern.isChecked())) {
			await pattern.check();
		}
		const root = (await page.locator('#root-uri').textContent()).trim();
		await subscribed(name, `${root}?pattern=*.txt`).waitFor();
		const fileStarted = Date.now();
		writeFileSync(join(watched, `hello-${name}.txt`), `hello from the ${name} era\n`);
		await page.locator(`#log tr.note[data-uri="${root}hello-${name}.txt"][data-subscribed-uri="${root}?pattern=*.txt"]`)
			.first()
			.waitFor();
		await page.waitForFunction((text) => document.querySelector('#file-view')?.textContent.includes(text),
			`hello from the ${name} era`, { timeout: WAIT_MS });
		log(`${name} era: file hello-${name}.txt shown after ${Date.now() - fileStarted} ms`);

		// The counters read the Actuator: this page's subscriptions are among them.
		await meterAtLeast('subscriptions', 3);
		await meterAtLeast(name === '2026' ? 'streams2026' : 'streams2025', 1);
		if (name === '2025') {
			await meterAtLeast('sessions', 1);
		}
		await meterAtLeast('sent', 1);
		await page.screenshot({ path: join(results, `live-page-${name}.png`), fullPage: true });
		log(`${name} era: screenshot ${join(results, `live-page-${name}.png`)}`);
	}

	await era('2026', true);
	await events();
	await era('2025', false);

	check(foreign.length === 0, `the page asked other hosts: ${foreign.join(', ')}`);
	check(problems.length === 0, problems.join('; '));
	console.log(`browser: PASS (${timings.join('; ')})`);
	status = 0;
} catch (error) {
	console.log(`browser: FAIL: ${error instanceof CheckFailed ? error.message : error.stack || error}`);
	status = 1;
	await page?.screenshot({ path: join(results, 'live-page-failure.png'), fullPage: true }).catch(() => {});
} finally {
	await context?.close().catch(() => {});
	rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
