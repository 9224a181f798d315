/** JMH benchmarks and dataset experiments. */
package io.coffer.benchmarks;
