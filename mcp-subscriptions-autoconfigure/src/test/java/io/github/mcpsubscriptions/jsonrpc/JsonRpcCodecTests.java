package io.github.mcpsubscriptions.jsonrpc;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.StringNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class JsonRpcCodecTests {

	private final JsonRpcCodec codec = new JsonRpcCodec();

	@Test
	void readsRequest() {
		JsonRpcMessage message = read("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",\"params\":{\"x\":1}}");
		assertThat(message).isInstanceOfSatisfying(JsonRpcRequest.class, (request) -> {
			assertThat(request.id()).isEqualTo(StringNode.valueOf("a"));
			assertThat(request.method()).isEqualTo("ping");
			assertThat(request.params().get("x").intValue()).isEqualTo(1);
		});
	}

	@Test
	void keepsLargeIntegerIdExactly() {
		JsonRpcRequest request = (JsonRpcRequest) read(
				"{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"ping\"}");
		assertThat(write(JsonRpcResponse.success(request.id(), Map.of())))
			.contains("\"id\":123456789012345678901234567890");
	}

	@Test
	void readsNotificationWithoutParams() {
		assertThat(read("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
			.isEqualTo(new JsonRpcNotification("notifications/initialized", null));
	}

	@Test
	void readsNullParamsAsNone() {
		assertThat(read("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":null}"))
			.isEqualTo(new JsonRpcNotification("x", null));
	}

	@Test
	void readsClientResponses() {
		assertThat(read("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")).isInstanceOf(JsonRpcResponse.class);
		JsonRpcResponse error = (JsonRpcResponse) read(
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-1,\"message\":\"no\"}}");
		assertThat(error.error().code()).isEqualTo(-1);
	}

	@Test
	void rejectsResponseWithBothResultAndError() {
		assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}",
				JsonRpcErrorCodes.INVALID_REQUEST);
	}

	@Test
	void rejectsMalformedErrorObject() {
		assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\",\"message\":\"x\"}}",
				JsonRpcErrorCodes.INVALID_REQUEST);
		assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,\"message\":\"x\"}}",
				JsonRpcErrorCodes.INVALID_REQUEST);
	}

	@Test
	void parseErrorForInvalidJson() {
		assertThatExceptionOfType(InvalidMessageException.class)
			.isThrownBy(() -> this.codec.parse("{".getBytes(StandardCharsets.UTF_8)))
			.satisfies((ex) -> {
				assertThat(ex.getError().code()).isEqualTo(JsonRpcErrorCodes.PARSE_ERROR);
				assertThat(ex.getId()).isNull();
			});
	}

	@Test
	void parseErrorForEmptyBody() {
		assertThatExceptionOfType(InvalidMessageException.class).isThrownBy(() -> this.codec.parse(new byte[0]))
			.satisfies((ex) -> assertThat(ex.getError().code()).isEqualTo(JsonRpcErrorCodes.PARSE_ERROR));
	}

	@Test
	void invalidRequestKeepsReadableId() {
		assertThatExceptionOfType(InvalidMessageException.class)
			.isThrownBy(() -> read("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":[]}"))
			.satisfies((ex) -> {
				assertThat(ex.getError().code()).isEqualTo(JsonRpcErrorCodes.INVALID_REQUEST);
				assertThat(ex.getId()).isEqualTo(IntNode.valueOf(9));
			});
	}

	@Test
	void nullIdIsInvalid() {
		assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", JsonRpcErrorCodes.INVALID_REQUEST);
	}

	@Test
	void arrayParamsAreInvalidParams() {
		assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[]}",
				JsonRpcErrorCodes.INVALID_PARAMS);
	}

	@Test
	void writesErrorWithNullIdWhenUnknown() {
		String json = write(JsonRpcResponse.failure(null, new JsonRpcError(-32700, "Parse error")));
		assertThat(json)
			.isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
	}

	@Test
	void writesResultWithoutNullMembers() {
		String json = write(JsonRpcResponse.success(IntNode.valueOf(1), new Sample("a", null)));
		assertThat(json).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"name\":\"a\"}}");
	}

	@Test
	void writesNotificationOnOneLine() {
		String json = write(new JsonRpcNotification("notifications/resources/updated", Map.of("uri", "a://b\nc")));
		assertThat(json).doesNotContain("\n")
			.isEqualTo(
					"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"a://b\\nc\"}}");
	}

	@Test
	void responseNeedsExactlyOneOfResultAndError() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new JsonRpcResponse(IntNode.valueOf(1), null, null));
	}

	@Test
	void bindReportsMemberNotJavaType() {
		JsonNode params = this.codec.parse("{\"name\":{}}".getBytes(StandardCharsets.UTF_8));
		assertThatExceptionOfType(JsonRpcException.class).isThrownBy(() -> this.codec.bind(params, Sample.class))
			.satisfies((ex) -> {
				assertThat(ex.getError().code()).isEqualTo(JsonRpcErrorCodes.INVALID_PARAMS);
				assertThat(ex.getError().message()).contains("\"name\"").doesNotContain("Sample", "java");
			});
	}

	private JsonRpcMessage read(String json) {
		return this.codec.read(this.codec.parse(json.getBytes(StandardCharsets.UTF_8)));
	}

	private String write(Object value) {
		return new String(this.codec.write(value), StandardCharsets.UTF_8);
	}

	private void assertInvalid(String json, int code) {
		assertThatExceptionOfType(InvalidMessageException.class).isThrownBy(() -> read(json))
			.satisfies((ex) -> assertThat(ex.getError().code()).isEqualTo(code));
	}

	record Sample(String name, String description) {
	}

}
