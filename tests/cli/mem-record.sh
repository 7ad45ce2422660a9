#!/usr/bin/env bash
# pmprof mem record: the events perf mem record picks, with its -W -d,
# checked against perf on fixture PMU directories (perf reads them under
# $SYSFS_PATH): AMD's IBS Op with perf mem record itself, Intel's
# mem-loads/mem-stores and the seed's Alpha ProfileMe event with perf
# record given the same strings. (perf 6.1 refuses a legacy name as a PMU
# term, so Alpha's type and config are checked by hand: modern perf's
# hardware event with the profileme bit, as the seed uses it.)
. "$(dirname "$0")/../lib.sh"
D="$TOP/tests/data"
CMP="$TOP/tests/tools/attrs-vs-perf.py"
cd "$TMP" || exit 1
command -v python3 >/dev/null 2>&1 || { skip mem-record "python3 not installed"; exit 0; }

dry() { "$PMPROF" mem record --sysfs "$D/sysfs-$1" --dry-run --format json 2>"$1.err"; }

# which events, said on stderr
dry alpha >alpha.json
check_eq "mem record (Alpha): the seed's event" "cpu/cycles,profileme/" \
	"$(python3 -c 'import json; print(" ".join(e["name"] for e in json.load(open("alpha.json"))))')"
check_eq "mem record (Alpha): a hardware event with the profileme bit" "0 4294967296" \
	"$(python3 -c 'import json; e=json.load(open("alpha.json"))[0]; print(e["type"], e["config"])')"
check_eq "mem record (Alpha): ADDR and DATA_SRC for pmprof mem, perf mem's weight" \
	"IP|TID|TIME|ADDR|PERIOD|DATA_SRC|WEIGHT_STRUCT" \
	"$(python3 -c 'import json; print(json.load(open("alpha.json"))[0]["sample_type_names"])')"
dry amd >amd.json
dry intel >intel.json
check_eq "mem record (Intel): mem-loads and mem-stores" "cpu/mem-loads,ldlat=30/P cpu/mem-stores/P" \
	"$(python3 -c 'import json; print(" ".join(e["name"] for e in json.load(open("intel.json"))))')"
dry arm >arm.json
check_eq "mem record (Arm): SPE" "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=30/" \
	"$(python3 -c 'import json; print(" ".join(e["name"] for e in json.load(open("arm.json"))))')"

if ! command -v perf >/dev/null 2>&1; then
	skip "mem record: perf comparisons" "perf not installed"
	exit 0
fi
# AMD: perf mem record itself, on the same tree
SYSFS_PATH="$D/sysfs-amd" perf mem record -vv -o p.data -- true >perf-amd.txt 2>&1
if grep -q "calling: record -e ibs_op//" perf-amd.txt; then
	check "mem record (AMD): the attrs perf mem record builds" python3 "$CMP" perf-amd.txt amd.json
else
	skip "mem record (AMD)" "perf mem did not pick ibs_op (not an AMD host)"
fi
# Intel: perf mem record's arguments on an Intel machine
SYSFS_PATH="$D/sysfs-intel" perf record -vv -W -d -e 'cpu/mem-loads,ldlat=30/P' -e 'cpu/mem-stores/P' \
	-o p.data -- true >perf-intel.txt 2>&1
check "mem record (Intel): mem-loads's attr as perf builds it" python3 "$CMP" perf-intel.txt intel.json
# perf stops at the first event that does not open here: mem-stores first
# (the tracking bits go with the first event)
SYSFS_PATH="$D/sysfs-intel" perf record -vv -W -d -e 'cpu/mem-stores/P' -e 'cpu/mem-loads,ldlat=30/P' \
	-o p.data -- true >perf-intel2.txt 2>&1
check "mem record (Intel): mem-stores's attr as perf builds it" python3 "$CMP" perf-intel2.txt intel.json \
	--only 1 --ignore mmap,comm,task,mmap2,comm_exec,ksymbol,bpf_event,mmap_data
# Arm
SYSFS_PATH="$D/sysfs-arm" perf record -vv -W -d \
	-e 'arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=30/' \
	-o p.data -- true >perf-arm.txt 2>&1
check "mem record (Arm): the attrs perf builds for the same strings" python3 "$CMP" perf-arm.txt arm.json
# Alpha: every other field as perf builds cpu/event=0,profileme/ with -W -d
SYSFS_PATH="$D/sysfs-alpha" perf record -vv -W -d -e 'cpu/event=0,profileme/' \
	-o p.data -- true >perf-alpha.txt 2>&1
check "mem record (Alpha): all but type and config as perf builds them" \
	python3 "$CMP" perf-alpha.txt alpha.json --ignore type,config

# the seed's record command line against the same tree
"$PMPROF" record -R -e cpu/instructions,profileme/ --sysfs "$D/sysfs-alpha" --dry-run --format json \
	-- ./workload >seed.json 2>seed.err
check_eq "record -R -e cpu/instructions,profileme/: accepted" 0 $?
check_eq "record -R: instructions with the profileme bit, RAW" "0 4294967297 IP|TID|TIME|CPU|PERIOD|RAW" \
	"$(python3 -c 'import json; e=json.load(open("seed.json"))[0]; print(e["type"], e["config"], e["sample_type_names"])')"
SYSFS_PATH="$D/sysfs-alpha" perf record -vv -R -e 'cpu/event=1,profileme/' -o p.data -- true >perf-seed.txt 2>&1
check "record -R: all but type and config as perf builds them" \
	python3 "$CMP" perf-seed.txt seed.json --ignore type,config

# this machine has no memory sampling PMU: both refuse
if [ ! -e /sys/bus/event_source/devices/ibs_op ] && [ ! -e /sys/bus/event_source/devices/cpu ]; then
	expect "mem record here: no memory PMU, exit 1" 1 "no PMU under /sys samples memory" \
		"$PMPROF" mem record -- true
	if perf mem record -o p.data -- true >/dev/null 2>&1; then
		not_ok "perf mem record fails here too"
	else
		ok "perf mem record fails here too"
	fi
fi
expect "mem record -e is refused" 1 "mem record chooses the events" \
	"$PMPROF" mem record --sysfs "$D/sysfs-alpha" -e cycles --dry-run
