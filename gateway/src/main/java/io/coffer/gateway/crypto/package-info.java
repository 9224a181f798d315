/**
 * The JCA provider order of a gateway process: {@link io.coffer.gateway.crypto.NativeCrypto} puts Amazon Corretto
 * Crypto Provider first when {@code coffer serve} starts.
 */
package io.coffer.gateway.crypto;
