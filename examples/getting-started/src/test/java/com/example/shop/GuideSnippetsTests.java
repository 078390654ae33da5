package com.example.shop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the docs show of this application is what it is: every block that follows an
 * {@code <!-- include: path [tag=name] -->} line in the docs equals that file (or the part
 * between its {@code tag::name[]} and {@code end::name[]} lines), tabs shown as four spaces.
 */
class GuideSnippetsTests {

	private static final Path ROOT = Path.of("..", "..");

	private static final Pattern INCLUDE = Pattern
		.compile("<!-- include: (\\S+)(?: tag=(\\S+))? -->\\n```[a-z]*\\n(.*?)```", Pattern.DOTALL);

	@Test
	void everyIncludedBlockIsTheFileAsItIs() throws IOException {
		List<String> checked = new ArrayList<>();
		for (Path page : pages()) {
			String text = Files.readString(page, StandardCharsets.UTF_8);
			Matcher include = INCLUDE.matcher(text);
			while (include.find()) {
				String expected = excerpt(ROOT.resolve(include.group(1)), include.group(2));
				assertThat(include.group(3)).as("%s shows %s%s as it is", ROOT.relativize(page), include.group(1),
						(include.group(2) != null) ? " (" + include.group(2) + ")" : "")
					.isEqualTo(expected);
				checked.add(include.group(1));
			}
		}
		assertThat(checked).as("the guide includes the example's files")
			.contains("examples/getting-started/pom.xml",
					"examples/getting-started/src/main/java/com/example/shop/Order.java",
					"examples/getting-started/src/main/java/com/example/shop/OrderRepository.java",
					"examples/getting-started/src/main/java/com/example/shop/OrderController.java",
					"examples/getting-started/src/main/java/com/example/shop/OrderResources.java",
					"examples/getting-started/src/main/java/com/example/shop/OrderService.java",
					"examples/getting-started/src/main/java/com/example/shop/OrderTools.java");
	}

	private static List<Path> pages() throws IOException {
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			return Stream.concat(Stream.of(ROOT.resolve("README.md")), docs.filter((p) -> p.toString().endsWith(".md")))
				.toList();
		}
	}

	private static String excerpt(Path file, String tag) throws IOException {
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		if (tag != null) {
			int start = indexOf(lines, "tag::" + tag + "[]", file);
			int end = indexOf(lines, "end::" + tag + "[]", file);
			lines = outdent(lines.subList(start + 1, end));
		}
		StringBuilder out = new StringBuilder();
		for (String line : lines) {
			out.append(line.replace("\t", "    ")).append('\n');
		}
		return out.toString();
	}

	private static int indexOf(List<String> lines, String marker, Path file) {
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains(marker)) {
				return i;
			}
		}
		throw new AssertionError(file + " has no " + marker);
	}

	private static List<String> outdent(List<String> lines) {
		int indent = lines.stream().filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length())
			.min()
			.orElse(0);
		return lines.stream().map((line) -> line.isBlank() ? "" : line.substring(indent)).toList();
	}

}
