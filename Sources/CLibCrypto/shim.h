#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// The parts of OpenSSL 3.0 libcrypto that the WebAuthn module uses on Linux
// (SHA-256, P-256 keys and ECDSA checks through the EVP interfaces, ECDSA signatures through
// EC_KEY (below), RAND_bytes,
// SubjectPublicKeyInfo DER through i2d_PUBKEY/d2i_PUBKEY), and the detached signatures of
// evidence bundles (PEM keys through memory BIOs, ECDSA P-256 and Ed25519 through EVP).
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/bio.h>
#include <openssl/pem.h>

// Composite macros that Swift cannot import as constants.

/// The EVP_PKEY_fromdata selection for domain parameters only (the P-256 template key).
static inline int clibcrypto_selection_parameters(void) { return EVP_PKEY_KEY_PARAMETERS; }

// ECDSA signing through EC_KEY. OpenSSL 3.0 deprecates these low-level calls in favour of
// EVP_PKEY_fromdata and EVP_DigestSign, but that route rebuilds the P-256 group from its name
// for every key: three times the cost of the signature itself, on every simulated assertion.
// These wrappers reuse one group and are used for signing only.

/// A P-256 private key on a copy of `group` with the 32-byte big-endian `scalar`, or NULL.
/// Free it with clibcrypto_p256_private_key_free.
static inline EC_KEY *clibcrypto_p256_private_key(const EC_GROUP *group, const unsigned char *scalar) {
    EC_KEY *key = EC_KEY_new();
    BIGNUM *number = BN_bin2bn(scalar, 32, NULL);
    if (key == NULL || number == NULL || EC_KEY_set_group(key, group) != 1 || EC_KEY_set_private_key(key, number) != 1) {
        EC_KEY_free(key);
        BN_clear_free(number);
        return NULL;
    }
    BN_clear_free(number);
    return key;
}

/// Signs a 32-byte digest; writes the DER signature (at most 72 bytes) and returns 1, or 0.
static inline int clibcrypto_ecdsa_sign_digest(EC_KEY *key, const unsigned char *digest, unsigned char *der, unsigned int *length) {
    return ECDSA_sign(0, digest, 32, der, length, key);
}

/// Frees a key made by clibcrypto_p256_private_key.
static inline void clibcrypto_p256_private_key_free(EC_KEY *key) { EC_KEY_free(key); }

#endif
