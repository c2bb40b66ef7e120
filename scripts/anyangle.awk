# anyangle.awk -- the any-angle figures of a `gridbench run` CSV, per map x
# solver: mean and largest subopt (cost / grid optimum; under
# `run --anyangle-model gppc`, cost / the exact any-angle optimum) and the
# share of queries at subopt 1 (within 1e-6), mean cost / the
# straight line start-goal (lb_ratio), mean expansions, and the median
# over queries of time_ns / the reference solver's time_ns on the same
# query (-v REF=NAME, default astar-octile; measure both in one run so
# they share the machine's load).  Rows with a valid path only (status ok
# or scen_mismatch) and a positive grid optimum.  Columns are found by
# name, so older or newer CSVs work as long as they have these.
#
#   ./gridbench run -s astar-octile,theta,astar-octile+smooth -r 3 \
#       --sample 60 --out q.csv ../shared/movingai/*/*.scen
#   awk -f scripts/anyangle.awk q.csv | sort -k1,1 -k2,2
BEGIN { FS = ","; if (REF == "") REF = "astar-octile" }
$1 == "map" { for (i = 1; i <= NF; i++) c[$i] = i; next }
($c["status"] == "ok" || $c["status"] == "scen_mismatch") && $c["dijkstra_cost"] > 0 {
    m = $c["map"]; s = $c["solver"]; q = m SUBSEP $c["line"]
    k = m SUBSEP s; n[k]++; maps[m]; solv[s]
    so[k] += $c["subopt"]; lb[k] += $c["lb_ratio"]; cm[s] = $c["cost_model"]
    if ($c["subopt"] > mx[k]) mx[k] = $c["subopt"]
    if ($c["subopt"] <= 1.000001) at1[k]++
    t[k, n[k]] = $c["time_ns"]; ql[k, n[k]] = q; ex[k] += $c["expanded"]
    if (s == REF) ref[q] = $c["time_ns"]
}
function median(a, cnt,   i, j, x) {
    for (i = 2; i <= cnt; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return cnt % 2 ? a[(cnt + 1) / 2] : (a[cnt / 2] + a[cnt / 2 + 1]) / 2
}
END {
    for (m in maps) for (s in solv) {
        k = m SUBSEP s; if (!n[k]) continue
        split("", r); nr = 0
        for (i = 1; i <= n[k]; i++)
            if ((ql[k, i] in ref) && ref[ql[k, i]] > 0) r[++nr] = t[k, i] / ref[ql[k, i]]
        printf "%-22s %-22s %-8s n=%-5d cost/grid=%.4f cost/line=%.4f exp=%-10.1f time/%s=%.3f " \
               "subopt_max=%.4f at_1=%.1f%%\n", m, s, cm[s], n[k], so[k] / n[k], lb[k] / n[k],
               ex[k] / n[k], REF, nr ? median(r, nr) : 0, mx[k], 100 * at1[k] / n[k]
        all_so[s] += so[k]; all_lb[s] += lb[k]; all_n[s] += n[k]
    }
    for (s in solv) if (all_n[s])
        printf "%-22s %-22s %-8s n=%-5d cost/grid=%.4f cost/line=%.4f\n", "(all maps)", s, cm[s],
               all_n[s], all_so[s] / all_n[s], all_lb[s] / all_n[s]
}
