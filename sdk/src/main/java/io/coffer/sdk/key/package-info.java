/** Where chunk keys come from: convergent, random or server-aided (OPRF), and the policy for which chunks dedup. */
package io.coffer.sdk.key;
