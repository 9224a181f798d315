/**
 * End-to-end S3 benchmark: the same AWS SDK client against the same s3proxy backend directly, through the Coffer
 * gateway, and through s3proxy's encrypting middleware ({@link io.coffer.benchmarks.gateway.GatewayBenchmark}).
 */
package io.coffer.benchmarks.gateway;
