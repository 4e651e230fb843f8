#!/usr/bin/env bash
# The bench and tune tests: run.sh CASE MPIEXEC MPICOLL MPICOLL_FAULT
# (see CMakeLists.txt for the cases). Prints "FAIL bench: ..." and exits 1
# on a failure, exits 77 for a part that cannot run here (skipped).
set -u
case=$1 mpiexec=$2 mpicoll=$3 faulty=$4
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
if "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
  env_flag() { echo "-x $1"; }
  env_set() { echo "-x $1=$2"; }
else
  env_flag() { :; } # MPICH's mpiexec passes the whole environment on
  env_set() { echo "-genv $1 $2"; }
fi
launch() { local np=$1; shift; "$mpiexec" "${flags[@]}" -n "$np" "$@"; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL bench: $*"; exit 1; }
show() { echo "--- $1"; cat "$1"; }
short=(-m 1:64 -i 5 -x 1)
sizes=7 # 1, 2, 4, ... 64

# CSV shape: $1 file, $2 expected cases per size (0: any, the same at
# every size), $3 header
csv_shape() {
  local file=$1 per=$2 header=$3
  [ "$(head -1 "$file")" = "$header" ] || { show "$file"; fail "CSV header"; }
  awk -F, -v per="$per" -v sizes="$sizes" '
    NR == 1 { next }
    NF != 11 { print "line " NR ": " NF " fields"; bad = 1 }
    $11 != 1 { print "line " NR ": not valid"; bad = 1 }
    seen[$3 "," $5]++ { print "line " NR ": twice"; bad = 1 }
    { n[$3]++ }
    END {
      for (b in n) { k++; if (first == "") first = n[b]; if (n[b] != first) bad = 1 }
      if (k != sizes || (per > 0 && first != per)) { print k " sizes of " first; bad = 1 }
      exit bad }' "$file" || { show "$file"; fail "CSV shape"; }
}

blocking_header=collective,np,bytes,count,algorithm,iterations,median_us,min_us,avg_us,max_us,valid
nb_header=collective,np,bytes,count,algorithm,iterations,pure_us,overall_us,compute_us,overlap_pct,valid

case $case in
csv)
  launch 3 "$mpicoll" bench allgather "${short[@]}" -a native,auto,ring,bruck --format csv \
    > "$dir/out" 2> "$dir/err" || { show "$dir/err"; fail "bench --format csv failed"; }
  csv_shape "$dir/out" 4 "$blocking_header"
  for a in native auto ring bruck; do
    [ "$(grep -c ",$a,5," "$dir/out")" = "$sizes" ] || fail "no $a line at every size"
  done
  # the default list (native, auto, all): the same cases at every size
  launch 3 "$mpicoll" bench allreduce "${short[@]}" --format csv > "$dir/all" 2> "$dir/err" ||
    { show "$dir/err"; fail "bench allreduce --format csv failed"; }
  sizes=5 # no 1- or 2-byte vector of floats
  csv_shape "$dir/all" 0 "$blocking_header"
  echo "bench: CSV header and shape hold"
  ;;
json)
  launch 3 "$mpicoll" bench allgather "${short[@]}" -a native,auto,ring,bruck --format json \
    > "$dir/out" 2> "$dir/err" || { show "$dir/err"; fail "bench --format json failed"; }
  python3 - "$dir/out" <<'EOF' || { show "$dir/out"; fail "JSON shape"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["collective"] == "allgather" and d["np"] == 3, d
r = d["results"]
assert len(r) == 7 * 4, len(r)
assert {x["algorithm"] for x in r} == {"native", "auto", "ring", "bruck"}
assert {x["bytes"] for x in r} == {1, 2, 4, 8, 16, 32, 64}
for x in r:
    assert x["valid"] and x["iterations"] == 5, x
    assert 0 < x["min_us"] <= x["median_us"] <= x["max_us"], x
    assert x["min_us"] <= x["avg_us"] <= x["max_us"], x
assert all("auto_ran" in x for x in r if x["algorithm"] == "auto")
EOF
  # the default list: native, auto, and every algorithm 'mpicoll list' names,
  # measured or said not measured
  launch 3 "$mpicoll" bench allgather "${short[@]}" --format json > "$dir/all" 2> "$dir/err" ||
    { show "$dir/err"; fail "bench allgather --format json failed"; }
  "$mpicoll" list allgather | awk 'NR > 2 { print $1 }' > "$dir/names"
  python3 - "$dir/all" "$dir/names" <<'EOF' || { show "$dir/all"; fail "the default list"; }
import json, sys
d = json.load(open(sys.argv[1]))
names = set(open(sys.argv[2]).read().split())
measured = {x["algorithm"] for x in d["results"]}
skipped = {n.split(":")[0] for n in d["not_measured"]}
assert {"native", "auto"} <= measured, measured
assert measured | skipped == names | {"native", "auto"}, (measured, skipped, names)
assert all(x["valid"] for x in d["results"])
EOF
  echo "bench: JSON shape holds"
  ;;
table)
  launch 3 "$mpicoll" bench allgather "${short[@]}" -f -a native,ring,bruck > "$dir/out" \
    2> "$dir/err" || { show "$dir/err"; fail "bench -f failed"; }
  for h in "^# min:" "^# average" "^# max:" "^# ratio to native"; do
    grep -q "$h" "$dir/out" || { show "$dir/out"; fail "no block '$h'"; }
  done
  # the main block: one row per size, 5 iterations, the fastest named last
  [ "$(awk '/^ +bytes/ { block++ } block == 1 && $2 == 5 && ($NF == "native" ||
       $NF == "ring" || $NF == "bruck") { n++ } END { print n }' "$dir/out")" = "$sizes" ] ||
    { show "$dir/out"; fail "main block rows"; }
  launch 3 "$mpicoll" bench alltoall 1024 5 10 -a ring > "$dir/pos" 2> "$dir/err" ||
    { show "$dir/err"; fail "bench alltoall SIZE ITERATIONS DELAY failed"; }
  grep -q "delay between iterations: 10 us" "$dir/pos" &&
    grep -qE "^ +1024 +5 " "$dir/pos" || { show "$dir/pos"; fail "positional form"; }
  launch 3 "$mpicoll" bench allreduce --counts 1024,4096 -i 3 -x 1 -a native,ring \
    > "$dir/counts" 2> "$dir/err" || { show "$dir/err"; fail "bench --counts failed"; }
  grep -qE "^ +3 +1024 +3 " "$dir/counts" && grep -qE "^ +3 +4096 +3 " "$dir/counts" &&
    grep -q "in ms" "$dir/counts" || { show "$dir/counts"; fail "--counts table"; }
  echo "bench: table blocks, the positional form and --counts hold"
  ;;
errors)
  expect() { # expect NP MESSAGE ARGS...: exit status 2 and MESSAGE on stderr
    local np=$1 msg=$2; shift 2
    launch "$np" "$mpicoll" "$@" > "$dir/out" 2> "$dir/err"
    local rc=$?
    [ $rc = 2 ] || { show "$dir/err"; fail "'$*': exit status $rc, not 2"; }
    grep -qF -- "$msg" "$dir/err" || { show "$dir/err"; fail "'$*': no '$msg'"; }
  }
  expect 1 "missing collective" bench
  expect 1 "unknown collective 'nosuch'" bench nosuch
  expect 1 "-m: expected [MIN:]MAX" bench allgather -m 0
  expect 1 "-i: expected a number" bench allgather -i x
  expect 1 "unknown allgather algorithm 'nosuch'" bench allgather -a native,nosuch
  expect 1 "--format: expected table, csv or json" bench allgather --format xml
  expect 1 "only 'char'" bench allgather -T float
  expect 1 "bcast has no in-place form" bench bcast -l
  expect 1 "--persistent: with a blocking collective" bench iallgather --persistent
  expect 1 "unknown option '--bogus'" bench allgather --bogus
  expect 1 "expected three numbers" bench alltoall 1024 5
  expect 1 "give one or the other" bench alltoall 1024 5 10 -m 8
  expect 1 "-m needs a value" bench allgather -m
  # -a says what MPICOLL_<COLL> would say of the same spec
  expect 1 "-a: k_bruck: parameter k=1 must be an integer in [2, 1048576]" bench allgather -a k_bruck:k=1
  expect 1 "-a: k_bruck: nothing after ':'" bench allgather -a k_bruck:
  expect 1 "-a: k_bruck: parameter k given twice" bench allgather -a ring,k_bruck:k=4,k=8
  expect 1 "--plot needs a value (the PNG file to write), but the next argument is the option '-m'" \
    bench allgather --plot -m 8:64
  expect 1 "--plot needs a value (the PNG file to write)" bench allgather --plot
  expect 1 "--type: expected char, int, float or double" bench allreduce -T mpi_complex
  # OSU's type spellings, and Open MPI's names and ids in -a (one case each:
  # the column has the algorithm's own name)
  launch 2 "$mpicoll" bench allreduce -T mpi_float -m 4:16 -i 2 -x 1 -a ring --format csv \
    > "$dir/osu" 2> "$dir/err" && grep -q "^allreduce,2,16,4,ring," "$dir/osu" ||
    { show "$dir/osu"; show "$dir/err"; fail "-T mpi_float"; }
  launch 2 "$mpicoll" bench alltoall -m 8:8 -i 2 -x 1 -a modified_bruck,3,bruck_index \
    --format csv > "$dir/alias" 2> "$dir/err" &&
    [ "$(grep -c "^alltoall,2,8,8,bruck_index," "$dir/alias")" = 1 ] ||
    { show "$dir/alias"; show "$dir/err"; fail "-a modified_bruck,3,bruck_index: one bruck_index case"; }
  expect 3 "nothing to measure" bench allgather -a two_proc
  expect 1 "--np: expected" tune --np 1
  expect 1 "unknown collective 'nosuch'" tune nosuch
  expect 1 "unknown option '-q'" tune -q
  echo "bench: bad command lines exit with 2 and say why"
  ;;
fault)
  export MPICOLL_TEST_FAULT=ring
  launch 3 $(env_flag MPICOLL_TEST_FAULT) "$faulty" bench allgather -c "${short[@]}" \
    -a native,ring,bruck --format csv > "$dir/out" 2> "$dir/err"
  rc=$?
  [ $rc = 1 ] || { show "$dir/out"; show "$dir/err"; fail "a broken ring: exit status $rc, not 1"; }
  [ "$(grep -c '^allgather,3,[0-9]*,[0-9]*,ring,.*,0$' "$dir/out")" = "$sizes" ] ||
    { show "$dir/out"; fail "ring not reported invalid at every size"; }
  [ "$(grep -cE '^allgather,3,[0-9]+,[0-9]+,(native|bruck),.*,1$' "$dir/out")" = $((2 * sizes)) ] ||
    { show "$dir/out"; fail "native or bruck not valid"; }
  launch 3 $(env_flag MPICOLL_TEST_FAULT) "$faulty" bench allgather -c "${short[@]}" \
    -a native,ring,bruck > "$dir/table" 2>&1
  [ $? = 1 ] && grep -q "^# FAIL" "$dir/table" && grep -qE "^ +1 +5 .*FAIL" "$dir/table" ||
    { show "$dir/table"; fail "the table does not show ring's failure"; }
  export MPICOLL_TEST_FAULT=
  launch 3 $(env_flag MPICOLL_TEST_FAULT) "$faulty" bench allgather -c "${short[@]}" \
    -a native,ring,bruck --format csv > "$dir/clean" 2> "$dir/err" ||
    { show "$dir/clean"; show "$dir/err"; fail "no fault: the bench failed"; }
  csv_shape "$dir/clean" 3 "$blocking_header"
  echo "bench: -c catches a broken algorithm (exit 1), and passes without the fault"
  ;;
nonblocking)
  for c in iallgather ialltoall iallreduce; do
    launch 3 "$mpicoll" bench $c "${short[@]}" -a native,auto,ring --format csv > "$dir/$c" \
      2> "$dir/err" || { show "$dir/err"; fail "bench $c failed"; }
    [ $c = iallreduce ] && sizes=5 || sizes=7
    csv_shape "$dir/$c" 3 "$nb_header"
    awk -F, 'NR > 1 && !($7 > 0 && $8 > 0 && $9 > 0 && $10 >= 0 && $10 <= 100) { bad = 1 }
             END { exit bad }' "$dir/$c" || { show "$dir/$c"; fail "$c overlap figures"; }
  done
  launch 2 "$mpicoll" bench ireduce_scatter_block "${short[@]}" -a native,ring > "$dir/t" \
    2> "$dir/err" && grep -q "^# overlap, percent" "$dir/t" ||
    { show "$dir/t"; show "$dir/err"; fail "ireduce_scatter_block table"; }
  echo "bench: non-blocking forms measured with their overlap"
  ;;
ahead)
  # bcast hierarchical's pipelines of short segments post receives ahead
  # (plan_ahead): every result checked, blocking, non-blocking and
  # persistent, 4 ranks on nodes of 2 (inter=3: binary trees in the nodes
  # too)
  algs=hierarchical:segsize=1024,hierarchical:inter=2,segsize=512,hierarchical:inter=2,segsize=8192
  algs=$algs,hierarchical:inter=3,segsize=4096
  for form in bcast ibcast "bcast --persistent"; do
    # shellcheck disable=SC2046,SC2086
    launch 4 $(env_set MPICOLL_RANKS_PER_NODE 2) "$mpicoll" bench $form -m 1:65536 -i 5 -x 1 \
      -a "$algs" --format csv > "$dir/out" 2> "$dir/err" ||
      { show "$dir/err"; fail "bench $form (receives posted ahead) failed"; }
    awk -F, 'NR > 1 { n++; if ($NF != 1) bad = 1 } END { exit bad || n < 4 * 17 }' "$dir/out" ||
      { show "$dir/out"; fail "bench $form: a result not valid"; }
  done
  echo "bench: pipelines with receives posted ahead give the right results"
  ;;
persistent)
  launch 3 "$mpicoll" bench allgather --persistent "${short[@]}" -a native,auto,ring \
    --format csv > "$dir/out" 2> "$dir/err" || { show "$dir/err"; fail "bench --persistent failed"; }
  csv_shape "$dir/out" 6 "$blocking_header"
  for a in native native/persistent auto auto/persistent ring ring/persistent; do
    grep -q ",$a,5," "$dir/out" || { show "$dir/out"; fail "no $a"; }
  done
  echo "bench: persistent cases beside the blocking ones"
  ;;
evidence)
  launch 2 "$mpicoll" bench allgather --evidence "${short[@]}" -a native,shm --format csv \
    > "$dir/out" 2> "$dir/err" || { show "$dir/err"; fail "bench --evidence failed"; }
  n='[0-9]+' t='[0-9]+\.[0-9]'
  for r in 0 1; do
    grep -Eq "^evidence: rank=$r cpu_start=$n cpu_end=$n minflt=$n majflt=$n nvcsw=$n nivcsw=$n elapsed_us=$n shm_calls=[1-9][0-9]* copy_in_us=$t wait_us=$t copy_out_us=$t pull_us=$t seg=0x[0-9a-f]+ seg_page_kb=[1-9][0-9]* seg_huge=[01] model=\".+\"\$" \
      "$dir/err" || { show "$dir/err"; fail "no evidence line of rank $r"; }
  done
  # the phases are parts of the measured time
  awk '/^evidence:/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
         if (v["copy_in_us"] + v["wait_us"] + v["copy_out_us"] + v["pull_us"] > v["elapsed_us"]) {
           print "phases above the elapsed time: " $0; bad = 1 } }
       END { exit bad }' "$dir/err" || fail "evidence phases"
  echo "bench: --evidence, a line per rank, every field nonnegative, the phases within the time"
  ;;
inplace)
  for c in allgather alltoall allreduce reduce reduce_scatter_block scan exscan iallreduce; do
    launch 3 "$mpicoll" bench $c -l -c -m 1:64 -i 2 -x 1 --format csv > "$dir/$c" \
      2> "$dir/err" || { show "$dir/$c"; show "$dir/err"; fail "bench $c -l failed"; }
  done
  launch 3 "$mpicoll" bench allreduce -l --persistent -m 4:256 -i 3 -x 1 -a ring --format csv \
    > "$dir/p" 2> "$dir/err" || { show "$dir/p"; show "$dir/err"; fail "persistent in place"; }
  echo "bench: every in-place form validated"
  ;;
progress)
  launch 3 "$mpicoll" bench allgather -m 1:256 -i 20 -x 2 -a native,ring > "$dir/out" \
    2> "$dir/err" || { show "$dir/err"; fail "bench failed"; }
  ! grep -q "elapsed" "$dir/err" || { show "$dir/err"; fail "a progress line, but stderr is no terminal"; }
  command -v script > /dev/null || { echo "bench: no script(1) here, the terminal part skipped"; exit 77; }
  printf '%q ' "$mpiexec" "${flags[@]}" -n 3 "$mpicoll" bench allgather -m 1:256 -i 20 -x 2 \
    -a native,ring > "$dir/cmd"
  script -qec "bash $dir/cmd > $dir/tty.out" "$dir/typescript" > /dev/null ||
    fail "bench under script(1) failed"
  grep -q "elapsed .* remaining" "$dir/typescript" ||
    { show "$dir/typescript"; fail "no progress line on a terminal"; }
  ! grep -q "elapsed" "$dir/tty.out" || fail "the progress line went to stdout"
  echo "bench: progress on a terminal only"
  ;;
plot)
  # every line its own colour (gnuplot's default cycle repeats after 8):
  # the script as gnuplot would read it, from a stand-in that keeps it
  printf '#!/bin/sh\ncat > "%s/plot.gp"\n' "$dir" > "$dir/keep"
  chmod +x "$dir/keep"
  for list in native,ring,bruck all,native,auto; do
    launch 4 $(env_set MPICOLL_GNUPLOT "$dir/keep") "$mpicoll" bench allgather "${short[@]}" \
      -a "$list" --sweep --plot "$dir/k.png" > "$dir/out" 2> "$dir/err" ||
      { show "$dir/err"; fail "--plot into a stand-in gnuplot"; }
    n=$(grep -o " with linespoints lc rgb '#[0-9a-f]*'" "$dir/plot.gp" | wc -l)
    distinct=$(grep -o "lc rgb '#[0-9a-f]*'" "$dir/plot.gp" | sort -u | wc -l)
    cases=$(grep -c '^\$d[0-9]* << EOD' "$dir/plot.gp")
    [ "$n" = "$cases" ] && [ "$distinct" = "$n" ] ||
      { show "$dir/plot.gp"; fail "-a $list: $cases cases, $n lines, $distinct colours"; }
  done
  launch 2 $(env_set MPICOLL_GNUPLOT "$dir/no/gnuplot") "$mpicoll" bench allgather \
    "${short[@]}" -a ring --plot "$dir/no.png" > "$dir/out" 2> "$dir/err"
  rc=$?
  [ $rc = 1 ] && grep -q "needs gnuplot" "$dir/err" && [ ! -e "$dir/no.png" ] ||
    { show "$dir/err"; fail "--plot without gnuplot: exit status $rc"; }
  command -v gnuplot > /dev/null || { echo "bench: no gnuplot here, the plot itself skipped"; exit 77; }
  launch 2 "$mpicoll" bench allgather "${short[@]}" -a native,ring --plot "$dir/p.png" \
    > "$dir/out" 2> "$dir/err" || { show "$dir/err"; fail "--plot failed"; }
  [ "$(head -c 4 "$dir/p.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] || fail "not a PNG"
  echo "bench: --plot draws a PNG, and says so when gnuplot is missing"
  ;;
cli)
  # the commands that run without mpirun: --help anywhere, and tables whose
  # columns line up when names carry parameters
  for c in list check show model; do
    "$mpicoll" $c --help > "$dir/out" 2> "$dir/err" && grep -q "^usage: mpicoll $c" "$dir/out" ||
      { show "$dir/out"; show "$dir/err"; fail "mpicoll $c --help"; }
  done
  "$mpicoll" list allgather --help > "$dir/out" && grep -q "^usage: mpicoll list" "$dir/out" ||
    fail "mpicoll list allgather --help"
  "$mpicoll" list alltoall | grep -qE "^  bruck_index +3  modified_bruck " ||
    { "$mpicoll" list alltoall; fail "list: bruck_index's id and alias"; }
  "$mpicoll" list > "$dir/list"
  "$mpicoll" model allreduce --np 8 --bytes 1M > "$dir/model"
  "$mpicoll" model allgather --np 8,64 --bytes 8,1M -a ring,k_bruck:k=1024,bruck >> "$dir/model"
  python3 - "$dir/list" "$dir/model" <<'EOF' || fail "columns out of line"
import re, sys
def check(path, header, left, right):
    cols = None
    for n, line in enumerate(open(path), 1):
        if re.match(header, line):
            cols = {m.group(): (m.start(), m.end()) for m in re.finditer(r"\S+", line)}
            continue
        if cols is None or line.startswith("#") or not line.startswith(" "):
            continue
        for name in left:   # a column starts where its header does
            s = cols[name][0]
            assert line[s - 1] == " " and line[s] != " ", (path, n, name, line)
        for name in right:  # or ends where its header does
            e = cols[name][1]
            assert line[e - 1] != " " and line[e:e + 1] in (" ", "\n", ""), (path, n, name, line)
check(sys.argv[1], r"  name ", ["name", "alias", "restriction", "fallback", "parameters", "what"],
      ["id"])
check(sys.argv[2], r" +np +bytes ", ["algorithm", "runs"],
      ["np", "bytes", "rounds", "msgs", "model_us"])
EOF
  # --group: the bytes between groups of 2 ranks at 4 ranks, 8 B blocks: the
  # ring crosses 1->2 and 3->0 in each of its 3 steps (48 B); recursive
  # doubling only in its second step, 2 blocks each way for all 4 (64 B)
  "$mpicoll" model allgather --np 4 --bytes 8 --group 2 -a ring,recursive_doubling --csv \
    > "$dir/far" || fail "model --group"
  grep -q '^allgather,4,8,ring,ring,3,3,[0-9.]*,48$' "$dir/far" &&
    grep -q '^allgather,4,8,recursive_doubling,recursive_doubling,2,2,[0-9.]*,64$' "$dir/far" ||
    { show "$dir/far"; fail "model --group: far_bytes"; }
  # show checks the restrictions on the node layout it is given: shm on two
  # nodes is refused (it used to draw a plan that left blocks unwritten)
  "$mpicoll" show allgather shm --np 4 --ranks-per-node 2 > "$dir/out" 2> "$dir/err"
  rc=$?
  [ $rc = 2 ] && grep -qF "shm does not run on 4 ranks of 2 nodes" "$dir/err" ||
    { show "$dir/out"; show "$dir/err"; fail "show shm on two nodes: exit status $rc"; }
  "$mpicoll" show allgather shm --np 4 --ranks-per-node 4 > "$dir/out" 2>&1 &&
    ! grep -q FAILED "$dir/out" || { show "$dir/out"; fail "show shm on one node"; }
  echo "mpicoll: --help of list, check, show, model; list and model columns in line; far bytes; show's node restrictions"
  ;;
tune)
  launch 3 "$mpicoll" tune -o "$dir/r.txt" "${short[@]}" allgather alltoall > "$dir/out" \
    2> "$dir/err" || { show "$dir/err"; fail "tune failed"; }
  for r in "allgather np=2 bytes=0-" "allgather np=3 bytes=0-" "alltoall np=3 bytes=0-"; do
    grep -q "^$r" "$dir/r.txt" || { show "$dir/r.txt"; fail "no rule '$r'"; }
  done
  grep -q "^# MPI library: " "$dir/r.txt" && grep -q "^# command: mpicoll tune" "$dir/r.txt" ||
    fail "header"
  # one node: shm_hier makes shm's plan, so it is measured and named as shm;
  # up to 64 B every segment makes the same plan, so the default one is named;
  # every rule says how sure it is
  ! grep -qE "^[a-z]+ np=.* shm_hier" "$dir/r.txt" || { show "$dir/r.txt"; fail "shm_hier named on one node"; }
  ! grep -E "^[a-z]+ np=" "$dir/r.txt" | sed 's/#.*//' | grep "segment=" | grep -qv "segment=4194304 " ||
    { show "$dir/r.txt"; fail "a swept segment named where every segment makes one plan"; }
  ! grep -E "^[a-z]+ np=" "$dir/r.txt" | grep -qvE "# [0-9]+-[0-9]+ B: .*the fastest at [0-9]+ of [0-9]+ sizes, by more than the noise at [0-9]+; (margin over the runner-up|no other plan)" ||
    { show "$dir/r.txt"; fail "a rule without its evidence"; }
  [ -z "$(ls "$dir" | grep tmp-)" ] || fail "a temporary file is left"
  export MPICOLL_RULES=$dir/r.txt MPICOLL_VERBOSE=1
  launch 3 $(env_flag MPICOLL_RULES) $(env_flag MPICOLL_VERBOSE) "$mpicoll" bench allgather \
    -a auto -m 1:64 -i 1 -x 0 > "$dir/b" 2> "$dir/log" || { show "$dir/log"; fail "bench with the rules"; }
  unset MPICOLL_RULES MPICOLL_VERBOSE
  ! grep -qE "warning|error" "$dir/log" || { show "$dir/log"; fail "the rules file does not load cleanly"; }
  grep -q "reason=rule np=3 bytes=64 ($dir/r.txt:" "$dir/log" ||
    { show "$dir/log"; fail "auto does not follow the tuned rules"; }
  launch 3 "$mpicoll" tune -o "$dir/missing/r.txt" "${short[@]}" allgather > "$dir/out" 2> "$dir/err"
  [ $? = 1 ] && grep -q "not writable" "$dir/err" || { show "$dir/err"; fail "-o into a missing directory"; }
  # interrupted: the target is not written, and no temporary file is left
  timeout -s INT 3 "$mpiexec" "${flags[@]}" -n 3 "$mpicoll" tune -o "$dir/int.txt" > /dev/null 2>&1
  sleep 1
  [ ! -e "$dir/int.txt" ] && [ -z "$(ls "$dir" | grep int.txt)" ] || fail "an interrupted tune left a file"
  echo "tune: a rules file that auto follows; nothing written when it fails or is interrupted"
  ;;
tune_model)
  # no mpirun: rules from the cost model, for sizes that need not exist here
  "$mpicoll" tune --model --np 2,4,16 -m 8,1K,64K -o "$dir/m.txt" allgather allreduce \
    > "$dir/out" 2> "$dir/err" || { show "$dir/err"; fail "tune --model failed"; }
  grep -q "^# command: mpicoll tune --model --np 2,4,16" "$dir/m.txt" &&
    grep -q "^# parameters: defaults" "$dir/m.txt" || { show "$dir/m.txt"; fail "tune --model: header"; }
  # each np holds up to the next one, the last above it too; nodes= its nodes
  for c in allgather allreduce; do
    for r in "np=2-3 nodes=2-3" "np=4-15 nodes=4-15" "np=16- nodes=16-"; do
      grep -q "^$c $r bytes=0-" "$dir/m.txt" || { show "$dir/m.txt"; fail "tune --model: no rule '$c $r bytes=0-'"; }
    done
  done
  ! grep -E "^[a-z]+ np=" "$dir/m.txt" | grep -qvE " # [0-9]+(-[0-9]+)? B: [0-9.]+(-[0-9.]+)? us predicted; (runner-up [a-z_:=0-9]+ [0-9.]+ us at [0-9]+ B|no other plan)" ||
    { show "$dir/m.txt"; fail "tune --model: a rule without its evidence"; }
  ! grep -qE "^[a-z]+ np=.* native" "$dir/m.txt" || { show "$dir/m.txt"; fail "tune --model named native"; }
  [ -z "$(ls "$dir" | grep tmp-)" ] || fail "tune --model left a temporary file"
  # the library takes the file: mpicoll model's auto follows the rule that
  # covers 16 ranks and 1 KiB (and 20 ranks, up to the next np: none)
  want=$(awk '$1 == "allgather" && $2 == "np=16-" {
      split(substr($4, 7), b, "-"); if (b[1] <= 1024 && (b[2] == "" || b[2] >= 1024)) print $5 }' "$dir/m.txt")
  [ -n "$want" ] || { show "$dir/m.txt"; fail "tune --model: no rule for 16 ranks and 1 KiB"; }
  MPICOLL_RULES=$dir/m.txt "$mpicoll" model allgather --np 16,20 --bytes 1K > "$dir/model" \
    2> "$dir/log" || { show "$dir/log"; fail "mpicoll model with the rules"; }
  ! grep -qiE "warning|error" "$dir/log" || { show "$dir/log"; fail "the model's rules do not load cleanly"; }
  [ "$(awk '$3 == "auto" { print $4 }' "$dir/model" | sort -u)" = "$want" ] ||
    { show "$dir/model"; fail "auto does not follow the model's rule ($want)"; }
  # a bad parameter file: its name and line, a failure, no rules file
  printf 'net.latency 1e-6\nnet.beta fast\n' > "$dir/bad.params"
  "$mpicoll" tune --model --params "$dir/bad.params" -o "$dir/bad.txt" allgather > "$dir/out" 2> "$dir/err"
  [ $? != 0 ] && grep -q "bad.params:2" "$dir/err" && [ ! -e "$dir/bad.txt" ] ||
    { show "$dir/err"; fail "tune --model with a bad --params file"; }
  "$mpicoll" tune --help | grep -q -- "--model" && "$mpicoll" tune --model --help | grep -q -- "--ranks-per-node" ||
    fail "tune --help does not document --model"
  echo "tune --model: rules without mpirun that auto follows; a bad --params file named"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
