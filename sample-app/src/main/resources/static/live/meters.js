// The counter panel: a few of the starter's Micrometer meters, read from the Actuator's
// /actuator/metrics/{name} (exposed by the sample's application.properties). PageTests checks
// that every meter named here exists, so a renamed meter fails the build, not the page.

export const METERS = {
	sessions: { meter: 'mcp.sessions.active', label: '2025 sessions' },
	streams2025: { meter: 'mcp.streams.open', tag: 'era:2025', label: '2025 GET streams' },
	streams2026: { meter: 'mcp.streams.open', tag: 'era:2026', label: '2026 listen streams' },
	subscriptions: { meter: 'mcp.subscriptions.active', label: 'subscriptions' },
	sent: { meter: 'mcp.notifications.sent', label: 'notifications sent' },
};

/** The value of one meter (its VALUE or COUNT measurement), or null when it cannot be read. */
async function value({ meter, tag }, headers) {
	const query = tag ? `?tag=${encodeURIComponent(tag)}` : '';
	const response = await fetch(`/actuator/metrics/${meter}${query}`, { headers });
	if (!response.ok) {
		return { status: response.status, value: null };
	}
	const body = await response.json();
	const measurement = body.measurements.find((m) => m.statistic === 'VALUE' || m.statistic === 'COUNT');
	return { status: response.status, value: measurement ? measurement.value : null };
}

/**
 * Reads every meter once a second and calls `show(values)` with `{ key: number|null }` plus
 * `rate`, the notifications sent per second since the previous reading, and `status`, the
 * HTTP status of the first meter (401 in profile "secure" without a token).
 */
export function pollMeters(show, { headers = () => ({}), interval = 1000 } = {}) {
	let previous;
	let stopped = false;
	const tick = async () => {
		const values = {};
		let status;
		try {
			// One after the other: the browser has six connections per host, and the MCP streams hold some.
			for (const [key, spec] of Object.entries(METERS)) {
				const read = await value(spec, headers());
				status ??= read.status;
				values[key] = read.value;
			}
			const now = performance.now();
			if (previous && values.sent !== null && previous.sent !== null) {
				values.rate = ((values.sent - previous.sent) * 1000) / (now - previous.at);
			} else {
				values.rate = null;
			}
			previous = { sent: values.sent, at: now };
			show({ ...values, status });
		} catch (error) {
			show({ status: 0, error: error.message });
		}
		if (!stopped) {
			setTimeout(tick, interval);
		}
	};
	tick();
	return () => {
		stopped = true;
	};
}
