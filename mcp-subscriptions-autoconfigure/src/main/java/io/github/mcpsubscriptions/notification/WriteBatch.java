package io.github.mcpsubscriptions.notification;

/**
 * How much a subscriber's writer hands to its stream with one flush before it lets other
 * subscribers' writers go first. Writing several waiting notifications with one flush
 * saves a system call each; the bounds keep one busy stream from holding a delivery
 * thread while others wait.
 *
 * @param maxNotifications the most notifications in one batch; 1 flushes after each
 * @param maxBytes the size in bytes at which a batch ends (it holds at least one
 * notification, however large)
 * @since 0.1.0
 */
record WriteBatch(int maxNotifications, int maxBytes) {

	/** 64 notifications or 32 KiB, whichever comes first. */
	public static final WriteBatch DEFAULT = new WriteBatch(64, 32 * 1024);

	/**
	 * Check the bounds.
	 * @param maxNotifications the most notifications in one batch
	 * @param maxBytes the size at which a batch ends
	 */
	public WriteBatch {
		if (maxNotifications < 1) {
			throw new IllegalArgumentException(
					"A write batch holds at least one notification, the maximum was " + maxNotifications);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("A write batch's size must be at least 1 byte, was " + maxBytes);
		}
	}

}
