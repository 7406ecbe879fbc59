#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// The parts of OpenSSL 3.0 libcrypto that the WebAuthn module uses on Linux
// (SHA-256, P-256 key construction and ECDSA through the EVP interfaces, RAND_bytes,
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

/// The EVP_PKEY_fromdata selection for a key pair (private and public parts).
static inline int clibcrypto_selection_keypair(void) { return EVP_PKEY_KEYPAIR; }

/// The EVP_PKEY_fromdata selection for a public key.
static inline int clibcrypto_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }

#endif
