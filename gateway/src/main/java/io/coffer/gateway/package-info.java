/** S3 front end on Netty and the coffer command line. */
package io.coffer.gateway;
