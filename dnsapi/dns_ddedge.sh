#!/usr/bin/env sh
# shellcheck disable=SC2034
# acme.sh DNS API hook for DonDominio through ddedge: `acme.sh --issue --dns dns_ddedge -d …`.
# Copy this file to ~/.acme.sh/dnsapi/ (or acme.sh's own dnsapi/ folder). ddedge adds the
# challenge value beside any other value at the name (a name and its wildcard coexist), waits
# until the zone's name servers show it, and removes exactly that value afterwards.
#
# Settings (saved in acme.sh's account.conf on first use, as acme.sh does for every hook):
#   DDEDGE_API_USER, and DDEDGE_API_PASSWORD_FILE (a file holding the password; preferred)
#     or DDEDGE_API_PASSWORD
#   optional: DDEDGE_SERVICE, DDEDGE_DNS_SERVERS, DDEDGE_PROPAGATION_TIMEOUT, DDEDGE_API_URL,
#     DDEDGE_STATE_DIR, DDEDGE_ENV_FILE (a dotenv file for ddedge), DDEDGE_BIN (default: ddedge)
dns_ddedge_info='DonDominio (through ddedge)
Site: dondominio.com
Options:
 DDEDGE_API_USER Registrar API user
 DDEDGE_API_PASSWORD_FILE File holding the registrar API password (or DDEDGE_API_PASSWORD)
 DDEDGE_SERVICE Hosting service holding the zone. Optional.
'

_DDEDGE_SETTINGS="DDEDGE_BIN DDEDGE_ENV_FILE DDEDGE_API_URL DDEDGE_API_USER DDEDGE_API_PASSWORD DDEDGE_API_PASSWORD_FILE DDEDGE_SERVICE DDEDGE_DNS_SERVERS DDEDGE_PROPAGATION_TIMEOUT DDEDGE_STATE_DIR"

# Usage: dns_ddedge_add _acme-challenge.www.example.com "XKrxpRBosdIKFzxW_CT3KLZNf6q0HG9i01zxXp5CPBs"
dns_ddedge_add() {
  _ddedge_settings
  _ddedge_acme present "$1" "$2"
}

# Usage: dns_ddedge_rm _acme-challenge.www.example.com "XKrxpRBosdIKFzxW_CT3KLZNf6q0HG9i01zxXp5CPBs"
dns_ddedge_rm() {
  _ddedge_settings
  _ddedge_acme cleanup "$1" "$2"
}

# Settings given in the environment are saved for renewals; missing ones are read back.
# Outside acme.sh (no _saveaccountconf_mutable) only the environment counts.
_ddedge_settings() {
  for _ddedge_name in $_DDEDGE_SETTINGS; do
    eval "_ddedge_value=\${$_ddedge_name:-}"
    if [ -n "$_ddedge_value" ]; then
      if _ddedge_defined _saveaccountconf_mutable; then _saveaccountconf_mutable "$_ddedge_name" "$_ddedge_value"; fi
    elif _ddedge_defined _readaccountconf_mutable; then
      _ddedge_value=$(_readaccountconf_mutable "$_ddedge_name")
      if [ -n "$_ddedge_value" ]; then
        eval "$_ddedge_name=\$_ddedge_value"
        export "$_ddedge_name"
      fi
    fi
  done
}

_ddedge_acme() {
  _ddedge_say "ddedge acme $1 $2 $3"
  if [ -n "${DDEDGE_ENV_FILE:-}" ]; then
    "${DDEDGE_BIN:-ddedge}" acme "$@" --env-file "$DDEDGE_ENV_FILE"
  else
    "${DDEDGE_BIN:-ddedge}" acme "$@"
  fi
  _ddedge_status=$?
  if [ "$_ddedge_status" -ne 0 ]; then
    _ddedge_error "ddedge acme $1 failed (exit $_ddedge_status)"
    return 1
  fi
  return 0
}

_ddedge_defined() {
  command -v "$1" >/dev/null 2>&1
}

_ddedge_say() {
  if _ddedge_defined _info; then _info "$1"; fi
}

_ddedge_error() {
  if _ddedge_defined _err; then _err "$1"; else printf '%s\n' "$1" >&2; fi
}
