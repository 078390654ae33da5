package io.github.mcpsubscriptions.capture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose capture is on says so at start-up, with the tables it captures.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChangeCaptureStartLogTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void theCaptureSaysItIsOnWithTheTablesItCaptures(CapturedOutput output) {
		this.nodes.start();
		assertThat(output)
			.contains("The MCP change capture is on: changes of product become notifications (mcp.capture.tables)");
	}

}
