// The live page against the sample started with profile "secure" (run by .ci/browser.sh):
//   node secure-page.mjs <base URL> <results directory>
// The page is public but holds no data: without a token it says that it needs one; with a
// token of client mcp-full pasted into it, it subscribes to catalog://products and a change of
// the restricted product 4 (made with curl and the same token) shows up, re-read through MCP.
// Prints "browser (secure): PASS (...)" or "browser (secure): FAIL: <reason>"; exits 0 or 1.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [base, results] = process.argv.slice(2);
if (!base || !results) {
	console.error('usage: node secure-page.mjs <base URL> <results directory>');
	process.exit(2);
}
const WAIT_MS = 15000;
const log = (message) => console.log(`[browser] ${message}`);

const profile = mkdtempSync(join(tmpdir(), 'mcp-live-chromium-'));
let context;
let page;
let status = 1;
try {
	context = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		timeout: 30000,
		viewport: { width: 1400, height: 1000 },
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--no-first-run'],
	});
	page = context.pages()[0] ?? (await context.newPage());
	page.setDefaultTimeout(WAIT_MS);
	const pageErrors = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));

	const response = await page.goto(`${base}/`);
	if (response.status() !== 200) {
		throw new Error(`GET / answered ${response.status()} in profile secure`);
	}
	await page.locator('#auth-needed:not([hidden])').waitFor();
	const state = await page.locator('#mcp-status').getAttribute('data-state');
	if (state !== 'unauthorized') {
		throw new Error(`without a token the page's state is ${state}, not unauthorized`);
	}
	log('without a token the page says it needs one');

	const token = JSON.parse(execFileSync('curl', ['-sS', '--fail', '--max-time', '5', '-u', 'mcp-full:mcp-full-secret',
		`${base}/oauth2/token`, '-d', 'grant_type=client_credentials',
		'-d', 'scope=catalog:read catalog:restricted catalog:write files:read'], { encoding: 'utf8' })).access_token;
	await page.fill('#token', token);
	await page.click('#token-form button[type="submit"]');
	await page.locator('#subscriptions[data-era="2026"] li[data-uri="catalog://products"].honoured').waitFor();
	if (!(await page.locator('#auth-needed').isHidden())) {
		throw new Error('the page still asks for a token after one was given');
	}

	const started = Date.now();
	execFileSync('curl', ['-sS', '--fail', '--max-time', '5', '-X', 'PUT', `${base}/api/products/4`,
		'-H', 'Content-Type: application/json', '-H', `Authorization: Bearer ${token}`,
		'-d', '{"name":"Restricted chair","price":4.44}']);
	await page.locator('#log tr.note[data-uri="catalog://products/4"][data-subscribed-uri="catalog://products"]').waitFor();
	await page.waitForFunction(
		() => document.querySelector('#mcp-products tr[data-id="4"] td[data-field="name"]')?.textContent === 'Restricted chair',
		null,
		{ timeout: WAIT_MS },
	);
	const ms = Date.now() - started;
	log(`with the token: restricted product 4 changed with curl, re-read through MCP after ${ms} ms`);
	await page.screenshot({ path: join(results, 'live-page-secure.png'), fullPage: true });
	if (pageErrors.length) {
		throw new Error(`page errors: ${pageErrors.join('; ')}`);
	}
	console.log(`browser (secure): PASS (token asked for, then product 4 re-read after ${ms} ms)`);
	status = 0;
} catch (error) {
	console.log(`browser (secure): FAIL: ${error.message}`);
	await page?.screenshot({ path: join(results, 'live-page-secure-failure.png'), fullPage: true }).catch(() => {});
} finally {
	await context?.close().catch(() => {});
	rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
