package io.github.mcpsubscriptions.resource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceContentMapperTests {

	private final ResourceContentMapper mapper = new ResourceContentMapper((value) -> "JSON:" + value);

	private final ResolvedResource plain = resolved(null);

	@Test
	void textDefaultsToTextPlain() {
		assertThat(this.mapper.toContents(this.plain, "hi"))
			.containsExactly(new TextResourceContents("a://r", "text/plain", "hi"));
	}

	@Test
	void bytesAreBase64Blob() {
		assertThat(this.mapper.toContents(this.plain, new byte[] { 0, 1 }))
			.containsExactly(new BlobResourceContents("a://r", "application/octet-stream", "AAE="));
	}

	@Test
	void objectsAreJson() {
		assertThat(this.mapper.toContents(this.plain, Map.of("a", 1)))
			.containsExactly(new TextResourceContents("a://r", "application/json", "JSON:{a=1}"));
	}

	@Test
	void declaredMimeTypeWins() {
		assertThat(this.mapper.toContents(resolved("text/csv"), "a,b").get(0).mimeType()).isEqualTo("text/csv");
	}

	@Test
	void contentsPassThrough() {
		ResourceContents contents = ResourceContents.text("a://other", "text/x", "y");
		assertThat(this.mapper.toContents(this.plain, contents)).containsExactly(contents);
		assertThat(this.mapper.toContents(this.plain, List.of(contents, contents))).hasSize(2);
	}

	@Test
	void nullAndEmptyOptionalMeanNotFound() {
		assertThat(this.mapper.toContents(this.plain, null)).isNull();
		assertThat(this.mapper.toContents(this.plain, Optional.empty())).isNull();
		assertThat(this.mapper.toContents(this.plain, Optional.of("x"))).hasSize(1);
	}

	private static ResolvedResource resolved(String mimeType) {
		return new ResolvedResource(ResourceDefinition.builder("a://r", (r) -> null).mimeType(mimeType).build(),
				"a://r", Map.of());
	}

}
