#!/bin/bash
# run-local.sh: `make run`: build cardbot and run it on its built-in
# configuration (IRC at 127.0.0.1:6667, channel #304). If nothing listens on
# that port, a private ngircd is started for the session and stopped after.
set -u
cd "$(dirname "$0")/.."

sh deploy/deps.sh run || { echo "run: installing the dependencies failed" >&2; exit 1; }
make -s || { echo "run: the build failed" >&2; exit 1; }

HOST=127.0.0.1
PORT=6667
STATE=build/run
mkdir -p "$STATE"

listening() {
	# A TCP connect that succeeds means a server is there already.
	(exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null
}

ircd_pid=""
cleanup() {
	[ -n "$ircd_pid" ] && kill "$ircd_pid" 2>/dev/null
}
trap cleanup EXIT INT TERM

if listening; then
	echo "run: an IRC server already listens on $HOST:$PORT; using it."
else
	cat > "$STATE/ngircd.conf" <<CONF
[Global]
Name = irc.cardbot.local
Info = cardbot's local IRC server
AdminInfo1 = cardbot make run
AdminInfo2 = this machine
AdminEMail = root@localhost
Listen = $HOST
Ports = $PORT
MotdPhrase = "A local server for cardbot: /join #304 and type !304"
[Options]
PAM = no
Ident = no
DNS = no
CONF
	/usr/sbin/ngircd -n -f "$STATE/ngircd.conf" > "$STATE/ngircd.log" 2>&1 &
	ircd_pid=$!
	i=0
	while ! listening; do
		i=$((i + 1))
		if [ $i -gt 50 ] || ! kill -0 "$ircd_pid" 2>/dev/null; then
			echo "run: the local ngircd did not start; see $STATE/ngircd.log" >&2
			exit 1
		fi
		sleep 0.1
	done
	echo "run: started a local ngircd on $HOST:$PORT (log: $STATE/ngircd.log)."
fi

cat <<TXT

  cardbot is joining #304 on $HOST:$PORT. To play, connect an IRC client:

      irssi -c $HOST          (or any client: server $HOST, port $PORT)
      /join #304
      !304                    opens a table; !bot adds computer players; !start deals

  !help lists every command. Stop cardbot with Ctrl-C.

TXT
bin/cardbot run --default
