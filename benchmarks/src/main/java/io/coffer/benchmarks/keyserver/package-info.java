/**
 * Key-server load test over loopback ({@link io.coffer.benchmarks.keyserver.KeyServerLoad}): the daemon in this JVM,
 * driven through the client's own exchanges and wire codec; run by {@code benchmarks/keyserver-bench.sh}.
 */
package io.coffer.benchmarks.keyserver;
