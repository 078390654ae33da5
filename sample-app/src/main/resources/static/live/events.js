// The events panel: the MCP event type catalog.product.changed (Events extension, draft
// SEP-3415), polled with events/poll. Polling is stateless and of the 2026 era whichever era
// the page's MCP client speaks: each poll names the type, its arguments and the cursor the
// previous poll returned; the first, with cursor null, starts from now. A change of the
// arguments is another subscription, so it starts from now again.

const sleep = (ms, wake) =>
	new Promise((resolve) => {
		const timer = setTimeout(resolve, ms);
		wake.then(() => {
			clearTimeout(timer);
			resolve();
		});
	});

/**
 * Polls `name` with `client` (an Mcp2026) until stopped: `args()` gives the arguments of each
 * poll, `onEvents(events, truncated)` gets what arrived, `onState(text, kind)` how polling goes.
 * Waits what the server asks (`nextPollMs`), at least `floorMs`, and not at all while it says
 * `hasMore`. Returns `{ stop, again }`: `again()` polls at once (the arguments changed).
 */
export function pollEvents(client, { name, args = () => ({}), onEvents, onState = () => {}, floorMs = 1000 }) {
	let stopped = false;
	let cursor = null;
	let current;
	let wake;
	let woken = new Promise((resolve) => {
		wake = resolve;
	});
	const again = () => {
		wake();
		woken = new Promise((resolve) => {
			wake = resolve;
		});
	};
	const loop = async () => {
		while (!stopped) {
			let wait = floorMs;
			const wakeUp = woken;
			try {
				const next = args();
				if (JSON.stringify(next) !== JSON.stringify(current)) {
					current = next;
					cursor = null;
				}
				const result = await client.request('events/poll', { name, arguments: current, cursor });
				if (JSON.stringify(args()) === JSON.stringify(current)) {
					// Not stale: the arguments did not change while it was on its way.
					cursor = result.cursor;
					if (result.events.length || result.truncated) {
						onEvents(result.events, result.truncated);
					}
				}
				onState(`polling ${name} ${JSON.stringify(current)}, every ${Math.max(floorMs, result.nextPollMs ?? 0)} ms`, 'live');
				wait = result.hasMore ? 0 : Math.max(floorMs, result.nextPollMs ?? floorMs);
			} catch (error) {
				onState(`events/poll: ${error.message}`, error.unauthorized ? 'unauthorized' : 'error');
				if (error.unauthorized) {
					return;
				}
				wait = 5000;
			}
			await sleep(wait, wakeUp);
		}
	};
	loop();
	return {
		stop: () => {
			stopped = true;
			wake();
		},
		again,
	};
}
