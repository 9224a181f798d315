/** Maintenance that {@code serve} runs on a timer beside the S3 endpoint: expiry of abandoned multipart uploads. */
package io.coffer.gateway.maintenance;
