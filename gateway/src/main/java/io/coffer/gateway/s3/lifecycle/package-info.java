/**
 * S3 bucket lifecycle configurations: the {@code LifecycleConfiguration} document, validated as S3 validates it, and
 * the rules' filters and actions the lifecycle sweep ({@code io.coffer.gateway.maintenance.LifecycleSweep}) applies.
 */
package io.coffer.gateway.s3.lifecycle;
