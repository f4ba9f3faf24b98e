/* irc_relay_tls.c: the relay's TLS: the OpenSSL handshake and the certificate checks (CA and host name, or a pin). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "irc_relay_internal.h"

/* ---- TLS ---- */

static int is_ip_literal(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

void relay_tls_begin(irc_relay *r)
{
	r->state = R_TLS;
	r->ctx = SSL_CTX_new(TLS_client_method());
	if (!r->ctx) {
		relay_close(r, "TLS: cannot create a context");
		return;
	}
	SSL_CTX_set_min_proto_version(r->ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(r->ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	int verify = !r->cfg.pin && r->cfg.tls_verify;
	if (verify) {
		int ok = r->cfg.ca_file[0] ? SSL_CTX_load_verify_locations(r->ctx, r->cfg.ca_file, NULL)
					   : SSL_CTX_set_default_verify_paths(r->ctx);
		if (ok != 1) {
			LOG(r, "error", "TLS: cannot load the CA certificates from %s",
			    r->cfg.ca_file[0] ? r->cfg.ca_file : "the system store");
			relay_close(r, "TLS: no CA certificates");
			return;
		}
		SSL_CTX_set_verify(r->ctx, SSL_VERIFY_PEER, NULL);
	} else {
		/* A pin replaces CA trust (self-signed servers are its main use);
		 * without one, tls_verify = 0 was asked for explicitly. */
		SSL_CTX_set_verify(r->ctx, SSL_VERIFY_NONE, NULL);
		if (!r->cfg.pin)
			LOG(r, "warn", "TLS certificate of %s will NOT be verified (tls_verify is off)", r->cfg.server);
	}
	r->ssl = SSL_new(r->ctx);
	if (!r->ssl || SSL_set_fd(r->ssl, r->srv_fd) != 1) {
		relay_close(r, "TLS: cannot set up the session");
		return;
	}
	int ip = is_ip_literal(r->cfg.server);
	if (!ip)
		SSL_set_tlsext_host_name(r->ssl, r->cfg.server);
	if (verify) {
		int ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(r->ssl), r->cfg.server)
			    : SSL_set1_host(r->ssl, r->cfg.server);
		if (ok != 1) {
			relay_close(r, "TLS: cannot set the expected host name");
			return;
		}
	}
	relay_tls_step(r);
}

static int tls_check_pin(irc_relay *r)
{
	X509 *cert = SSL_get1_peer_certificate(r->ssl);
	if (!cert) {
		LOG(r, "error", "TLS: %s sent no certificate to check against the pinned fingerprint", r->cfg.server);
		return -1;
	}
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	int ok = X509_digest(cert, EVP_sha256(), md, &mdlen);
	X509_free(cert);
	if (ok != 1 || mdlen != IRC_RELAY_PIN_LEN)
		return -1;
	if (CRYPTO_memcmp(md, r->cfg.pin, IRC_RELAY_PIN_LEN) != 0) {
		char hex[IRC_RELAY_PIN_LEN * 3 + 1];
		for (unsigned i = 0; i < mdlen; i++)
			snprintf(hex + 3 * i, 4, "%02X%s", md[i], i + 1 < mdlen ? ":" : "");
		LOG(r, "error", "TLS certificate of %s does not match the pinned fingerprint; refusing it (its SHA-256 is %s)",
		    r->cfg.server, hex);
		return -1;
	}
	return 0;
}

void relay_tls_step(irc_relay *r)
{
	ERR_clear_error();
	int rc = SSL_connect(r->ssl);
	if (rc == 1) {
		if (r->cfg.pin && tls_check_pin(r) < 0) {
			relay_close(r, "TLS certificate refused (fingerprint mismatch)");
			return;
		}
		LOG(r, "info", "TLS established with %s (%s, %s)", r->peer, SSL_get_version(r->ssl),
		    SSL_get_cipher_name(r->ssl));
		relay_on_server_up(r);
		return;
	}
	int e = SSL_get_error(r->ssl, rc);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		r->hs_want_write = e == SSL_ERROR_WANT_WRITE;
		return;
	}
	long v = SSL_get_verify_result(r->ssl);
	if (v != X509_V_OK) {
		LOG(r, "error", "TLS certificate of %s refused: %s (trusting %s%s)", r->cfg.server,
		    X509_verify_cert_error_string(v), r->cfg.ca_file[0] ? "CA file " : "the system CA store",
		    r->cfg.ca_file);
		relay_close(r, "TLS certificate refused");
		return;
	}
	char ebuf[256] = "connection closed";
	unsigned long err = ERR_get_error();
	if (err)
		ERR_error_string_n(err, ebuf, sizeof ebuf);
	relay_close(r, "TLS handshake with %s failed: %s", r->peer, ebuf);
}
