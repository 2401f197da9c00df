#!/usr/bin/env bash
# usage: triage.sh RESULTS.jsonl OUT.txt  -- replays every non-pass seed at the current code
cd /work/main
node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(x=>JSON.parse(x));
for (const r of l) if (r.outcome!=="pass") console.log(r.file+" "+r.seed);' "$1" | while read f s; do
  timeout 900 npx eos-sim run "$f" --seed "$s" --swarm --json 2>/dev/null > /tmp/tri.json
  node -e '
const r=JSON.parse(require("fs").readFileSync("/tmp/tri.json"));
const d=(r.liveness&&r.liveness.detail)||"";
const ops=JSON.stringify(r.operatorOutcomes||[]);
const viol=r.guarantee.verdicts.filter(v=>v.verdict==="violates").map(v=>v.kind);
let c;
if (viol.length) c="VIOLATES:"+viol.join(",");
else if (r.outcome==="pass") c="passes-now";
else if (r.outcome!=="liveness") c="OUTCOME:"+r.outcome;
else if (/PrepareAbort at producerId|PrepareCommit at producerId/.test(d)) c="reloaded-older-epoch-refused-marker";
else if (/had loaded it at/.test(d)) c="coordinator-loaded-then-truncated";
else if (/coordinator.s record of it was truncated[^;]*\(power-loss\)/.test(d)) c="coordinator-record-power-loss";
else if (/coordinator.s record of it was truncated/.test(d)) c="coordinator-record-truncated-other";
else if (/marker was truncated away[^;]*\(power-loss\)/.test(d)) c="marker-truncated-power-loss";
else if (/marker was truncated away/.test(d)) c="marker-truncated-other";
else if (/passed over/.test(ops)) c="operator-passed-over";
else if (/REQUEST_TIMED_OUT|LEADER_NOT_AVAILABLE|NOT_LEADER|Failed to/.test(ops)) c="operator-failed";
else c="OTHER";
console.log(c+" | '"$f"' '"$s"' | "+d.slice(0,300)+" | "+ops.slice(0,300));
' >> "$2"
done
