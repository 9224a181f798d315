/**
 * Test support for projects that embed or talk to Coffer: a JUnit 5 extension that runs an in-process gateway on a
 * free port and hands out a configured AWS SDK v2 {@code S3Client}. JUnit and the AWS SDK are optional dependencies
 * of the gateway; projects using this package bring their own.
 */
package io.coffer.gateway.testing;
