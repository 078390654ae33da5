// Server-sent events read from a fetch() response body. EventSource cannot be used: it only
// sends GET without custom headers, while MCP needs a POST (2026 era: subscriptions/listen)
// or a GET with Mcp-Session-Id and Last-Event-ID headers (2025 era).

/**
 * Reads the SSE stream of `response` until it ends or `signal` aborts.
 * Calls `onEvent({ id, event, data, retry })` for every event (also for events without data,
 * such as the 2025 era's priming event, whose id matters for resumption) and `onComment(text)`
 * for comment lines such as heartbeats.
 */
export async function readSse(response, { onEvent, onComment = () => {}, signal } = {}) {
	const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
	const abort = () => reader.cancel().catch(() => {});
	signal?.addEventListener('abort', abort, { once: true });
	let buffer = '';
	let event = blank();
	const line = (text) => {
		if (text === '') {
			if (event.hasFields) {
				onEvent({ id: event.id, event: event.event, data: event.data.join('\n'), retry: event.retry });
			}
			event = blank();
			return;
		}
		if (text.startsWith(':')) {
			onComment(text.slice(1).trim());
			return;
		}
		const colon = text.indexOf(':');
		const field = colon < 0 ? text : text.slice(0, colon);
		let value = colon < 0 ? '' : text.slice(colon + 1);
		if (value.startsWith(' ')) {
			value = value.slice(1);
		}
		event.hasFields = true;
		if (field === 'data') {
			event.data.push(value);
		} else if (field === 'id') {
			event.id = value;
		} else if (field === 'event') {
			event.event = value;
		} else if (field === 'retry' && /^\d+$/.test(value)) {
			event.retry = Number(value);
		}
	};
	try {
		for (;;) {
			const { value, done } = await reader.read();
			if (done) {
				break;
			}
			buffer += value;
			let end;
			while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
				// A lone CR at the end of a chunk may be the first half of CRLF: wait for more.
				if (buffer[end] === '\r' && end === buffer.length - 1) {
					break;
				}
				const width = buffer.startsWith('\r\n', end) ? 2 : 1;
				line(buffer.slice(0, end));
				buffer = buffer.slice(end + width);
			}
		}
	} catch (error) {
		if (!signal?.aborted) {
			throw error;
		}
	} finally {
		signal?.removeEventListener('abort', abort);
	}
}

function blank() {
	return { id: undefined, event: 'message', data: [], retry: undefined, hasFields: false };
}
