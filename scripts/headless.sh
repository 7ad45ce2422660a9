# Sourced: headless Chromium for the HTML pages' tests and pictures
# (tests/cli/*.sh, scripts/pictures.sh).
#
# headless PROFILE LOG ARGS... URL: Chromium without a window, with a
# profile directory of its own (PROFILE: never the user's), no network
# chatter, no scrollbars (the same pixels every run), and its log, the
# page's console messages included ("INFO:CONSOLE"), appended to LOG.
headless() {
	local profile=$1 log=$2
	shift 2
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 \
		"$@" 2>>"$log"
}
