package io.github.mcpsubscriptions.capture;

import java.util.Comparator;

/**
 * A position in the database's record of committed changes: every change before it has
 * been read. Positions are ordered by transaction, then by the row's order within it.
 *
 * @param transaction the transaction's number (PostgreSQL: its 64-bit transaction id)
 * @param row the row's number within the record
 * @since 0.1.0
 */
public record CapturePosition(long transaction, long row) implements Comparable<CapturePosition> {

	/** Before every change. */
	public static final CapturePosition START = new CapturePosition(0, 0);

	private static final Comparator<CapturePosition> ORDER = Comparator.comparingLong(CapturePosition::transaction)
		.thenComparingLong(CapturePosition::row);

	@Override
	public int compareTo(CapturePosition other) {
		return ORDER.compare(this, other);
	}

	/**
	 * The later of two positions.
	 * @param other the other position
	 * @return this or the other
	 */
	public CapturePosition max(CapturePosition other) {
		return (compareTo(other) >= 0) ? this : other;
	}

	/**
	 * The position as text that sorts like the position (fixed-width decimal numbers),
	 * for a shared log to compare.
	 * @return the text
	 */
	public String toSortableString() {
		return String.format("%019d:%019d", this.transaction, this.row);
	}

	@Override
	public String toString() {
		return this.transaction + ":" + this.row;
	}

}
