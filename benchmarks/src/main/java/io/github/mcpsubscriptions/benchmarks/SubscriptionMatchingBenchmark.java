package io.github.mcpsubscriptions.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.subscription.SubscriptionMatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Compares finding the subscriptions that cover a changed URI with the
 * {@link SubscriptionIndex} and with a linear scan that checks every subscription with
 * {@link CoverageRules#covers(String, String)}, on the same subscriptions and the same
 * rotating changes, as the number of subscriptions grows.
 * <p>
 * Subscriptions: 70% exact ({@code catalog://products/<n>}), 20% prefix
 * ({@code file:///data/<n>/} and {@code catalog://orders/<n>}), 10% template and pattern
 * (<code>weather://city-&lt;n&gt;/{name}</code> and
 * {@code file:///logs/<n>/?pattern=*.error.log}); each subscriber holds ten. Changes:
 * half hit one subscription of each kind, half miss.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class SubscriptionMatchingBenchmark {

	private static final int CHANGES = 1024;

	@Param({ "1000", "10000", "100000" })
	int subscriptions;

	private String[] subscribers;

	private String[] subscribedUris;

	private SubscriptionIndex<String> index;

	private String[] changes;

	private int next;

	/**
	 * Subscribes every subscriber and prepares the changes, once per trial.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		this.subscribers = new String[this.subscriptions];
		this.subscribedUris = new String[this.subscriptions];
		this.index = new SubscriptionIndex<>();
		for (int n = 0; n < this.subscriptions; n++) {
			this.subscribers[n] = "session-" + (n / 10);
			this.subscribedUris[n] = subscribedUri(n);
			this.index.add(this.subscribers[n], this.subscribedUris[n]);
		}
		Random random = new Random(42);
		this.changes = new String[CHANGES];
		for (int i = 0; i < CHANGES; i++) {
			this.changes[i] = change(random, i);
		}
	}

	/** Subscription n: its kind follows n modulo 10, 20, so every kind spreads evenly. */
	private static String subscribedUri(int n) {
		return switch (n % 20) {
			case 7, 8 -> "file:///data/" + n + "/";
			case 17, 18 -> "catalog://orders/" + n;
			case 9 -> "weather://city-" + n + "/{name}";
			case 19 -> "file:///logs/" + n + "/?pattern=*.error.log";
			default -> "catalog://products/" + n;
		};
	}

	private String change(Random random, int i) {
		// A subscription number whose residue modulo 20 is the one of the wanted kind.
		int residue = new int[] { 0, 7, 17, 9, 19 }[i % 5];
		int n = random.nextInt(this.subscriptions / 20) * 20 + residue;
		boolean hit = (i / 5) % 2 == 0;
		return switch (residue) {
			case 0 -> hit ? "catalog://products/" + n : "catalog://products/" + (this.subscriptions + n);
			case 7 -> hit ? "file:///data/" + n + "/report.csv" : "file:///data/missing-" + n + "/report.csv";
			case 17 -> hit ? "catalog://orders/" + n + "/lines/3" : "catalog://orders-archive/" + n + "/lines/3";
			case 9 -> hit ? "weather://city-" + n + "/paris" : "weather://city-" + n + "/paris/hourly";
			default -> hit ? "file:///logs/" + n + "/app.error.log" : "file:///logs/" + n + "/app.info.log";
		};
	}

	private String nextChange() {
		String change = this.changes[this.next];
		this.next = (this.next + 1) & (CHANGES - 1);
		return change;
	}

	/**
	 * Matches a change with the index, as the dispatcher does: each match handed over as
	 * it is found.
	 * @param blackhole consumes the matches
	 */
	@Benchmark
	public void indexMatch(Blackhole blackhole) {
		blackhole.consume(
				this.index.forEachMatch(nextChange(), (subscriber, subscribedUri) -> blackhole.consume(subscriber)));
	}

	/**
	 * Matches a change by checking every subscription with the default rules.
	 * @param blackhole consumes the matches
	 */
	@Benchmark
	public void linearScan(Blackhole blackhole) {
		String changed = nextChange();
		List<SubscriptionMatch<String>> matches = new ArrayList<>();
		for (int n = 0; n < this.subscribedUris.length; n++) {
			if (CoverageRules.covers(this.subscribedUris[n], changed)) {
				matches.add(new SubscriptionMatch<>(this.subscribers[n], this.subscribedUris[n]));
			}
		}
		blackhole.consume(matches);
	}

}
