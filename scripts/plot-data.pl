#!/usr/bin/perl
# plot-data.pl -- the extra plot data of a run folder that the faceted
# plots read, derived from what `gridbench summary` wrote there
# (summary.csv and data/: maps.tsv, speedup.tsv, bucket-SLUG.tsv):
#
#   data/panels-SLUG.gp   per map: gnuplot assignments that split the
#                         solvers of bucket-SLUG.tsv into panels of at most
#                         PANEL_MAX solvers each, by family (below):
#                         np (panels); for panel i: pI (the block indices,
#                         blank-separated), tI (its title), fI (1 when its
#                         expansions are not cells: jump points or
#                         subgoals); ref (dijkstra's block, -1 if none)
#   data/panels-cactus.gp the same for the blocks of cactus.tsv
#   data/speedup-g.tsv    speedup.tsv plus a column gclass: the solver's
#                         guarantee in summary.csv (1 optimal, 2 bounded,
#                         3 none, 0 unknown)
#   data/speedup-maps.gp  mI = 'name of map I' (gnuplot assignments): the
#                         panel titles of speedup.gp
#   data/queues-SLUG.tsv  per map, the solvers that ran on two or more
#                         queues there: header "solver" then, per queue Q,
#                         Q, Q_lo, Q_hi; per solver the median time on Q /
#                         the median time on its reference queue (bheap,
#                         else its first queue), and the 95 % interval of
#                         the median on Q divided by the same; NaN when the
#                         solver did not run on Q (empty file: no such
#                         solver)
#
# Families (by solver name): Dijkstra, A* and the bidirectional searches;
# bounded and greedy searches (wastar-*, gbfs-*, bfs); jump points and
# subgoal graphs (jps*, sg*: their expansions count jump points or
# subgoals, not cells); any other solver.  dijkstra itself is the
# reference drawn in every panel, not a member.
#
#   scripts/plot-data.pl RUN_DIR
# Exit status: 0 done; 2 a file is missing or malformed (message says which).
use strict;
use warnings;
use Text::CSV;

use constant PANEL_MAX => 5;   # + the dijkstra reference = 6 lines at most

my $dir = shift // do { print STDERR "usage: plot-data.pl RUN_DIR\n"; exit 2 };
sub fail { print STDERR "plot-data.pl: $_[0]\n"; exit 2 }

# summary.csv is RFC 4180 and its map column holds file names as they are
# (a ',' a '"' or a newline quoted): read it with Text::CSV (Debian package
# libtext-csv-perl, installed by scripts/deps.sh), not a hand-made regex --
# the one here before lost every field after a quoted map name.
my $csv = Text::CSV->new({ binary => 1, strict => 1, auto_diag => 0 })
    or fail("Text::CSV: " . Text::CSV->error_diag);
sub csv_rows {   # all records of a CSV file (header first), or fail
    my ($path) = @_;
    open(my $fh, '<', $path) or fail("$path: $!");
    my @rows;
    while (my $r = $csv->getline($fh)) { push @rows, $r; }
    my ($code, $msg, $pos, $rec) = $csv->error_diag;
    fail("$path:$.: expected an RFC 4180 record, found error $code ($msg) at byte $pos")
        unless $csv->eof && ($code == 0 || $code == 2012);
    close($fh);
    return @rows;
}
sub tsvname { my $s = shift; $s =~ s/[\t\n\r]/ /g; return $s }
sub write_file {
    my ($path, $text) = @_;
    open(my $o, '>', "$path.part") or fail("$path.part: $!");
    print $o $text or fail("$path.part: $!");
    close($o) or fail("$path.part: $!");
    rename("$path.part", $path) or fail("$path: $!");
}

# ---- summary.csv -------------------------------------------------------------
my @sum = csv_rows("$dir/summary.csv");
my $hdr = shift(@sum) // fail("$dir/summary.csv: empty");
my @h = @$hdr;
my %col;
@col{@h} = (0 .. $#h);
for my $c (qw(map solver queue guarantee time_median_ns)) {
    fail("$dir/summary.csv: expected a column $c, found none") unless exists $col{$c};
}
my (%guar, %t, %order_q, @queues, %qseen);
for my $r (@sum) {
    my @f = @$r;
    next if @f == 1 && $f[0] eq '';
    my ($m, $s, $q) = (tsvname($f[$col{map}]), $f[$col{solver}], $f[$col{queue}]);
    $guar{$s} //= $f[$col{guarantee}];
    my $num = sub { my $c = shift; return 'NaN' unless exists $col{$c}; my $v = $f[$col{$c}] // ''; $v eq '' ? 'NaN' : $v };
    $t{$m}{$s}{$q} = [$num->('time_median_ns'), $num->('time_median_lo_ns'), $num->('time_median_hi_ns')];
    push @{$order_q{$m}{$s}}, $q;
    push @queues, $q unless $qseen{$q}++;
}
my $refq = $qseen{bheap} ? 'bheap' : ($queues[0] // 'bheap');

# ---- maps --------------------------------------------------------------------
open(my $mf, '<', "$dir/data/maps.tsv") or fail("$dir/data/maps.tsv: $!");
my @maps;
while (my $l = <$mf>) {
    chomp $l;
    next if $l =~ /^#/ || $l eq '';
    my @f = split /\t/, $l, -1;
    push @maps, { name => $f[1], slug => $f[2] };
}
close($mf);

# ---- panels per map ------------------------------------------------------------
my @fam_title = ('', 'Dijkstra, A* and bidirectional', 'bounded and greedy (not optimal)',
                 'jump points and subgoal graphs', 'other solvers');
sub family {
    my $s = shift;
    return 3 if $s =~ /^(jps|sg)/;
    return 2 if $s =~ /^(wastar-|gbfs-)/ || $s eq 'bfs';
    return 1 if $s =~ /^(astar-|biastar-|bidijkstra$)/;
    return 4;
}
# panels of the blocks of one plot data file (blocks titled "SOLVER")
sub panels {
    my ($bf, $outf) = @_;
    open(my $b, '<', $bf) or fail("$bf: $!");
    my ($idx, $ref, @by) = (0, -1);
    while (my $l = <$b>) {
        next unless $l =~ /^"([^"]*)"\t/;
        my $s = $1;
        if ($s eq 'dijkstra') { $ref = $idx; }
        else { push @{$by[family($s)]}, $idx; }
        $idx++;
    }
    close($b);
    my ($np, $out) = (0, '');
    for my $fa (1 .. 4) {
        my @mem = @{$by[$fa] // []};
        next unless @mem;
        my $chunks = int((@mem + PANEL_MAX - 1) / PANEL_MAX);
        my $per = int((@mem + $chunks - 1) / $chunks);   # even chunks
        for my $c (0 .. $chunks - 1) {
            my @part = grep { defined } @mem[$c * $per .. ($c + 1) * $per - 1];
            next unless @part;
            $np++;
            my $title = $fam_title[$fa] . ($chunks > 1 ? sprintf(' (%d of %d)', $c + 1, $chunks) : '');
            $out .= sprintf("p%d = '%s'; t%d = '%s'; f%d = %d\n", $np, join(' ', @part), $np, $title,
                            $np, $fa == 3 ? 1 : 0);
        }
    }
    if (!$np && $ref >= 0) {   # only dijkstra ran: one panel with it
        $np = 1;
        $out = sprintf("p1 = '%d'; t1 = '%s'; f1 = 0\n", $ref, $fam_title[1]);
        $ref = -1;
    }
    write_file($outf, "np = $np\nref = $ref\n$out");
}
panels("$dir/data/bucket-$_->{slug}.tsv", "$dir/data/panels-$_->{slug}.gp") for @maps;
panels("$dir/data/cactus.tsv", "$dir/data/panels-cactus.gp") if -e "$dir/data/cactus.tsv";

# ---- speedup with the guarantee class -----------------------------------------
my %gclass = (optimal => 1, bounded => 2, none => 3);
if (-s "$dir/data/speedup.tsv") {
    open(my $in, '<', "$dir/data/speedup.tsv") or fail("$dir/data/speedup.tsv: $!");
    my $text = '';
    while (my $l = <$in>) {
        chomp $l;
        if ($l =~ /^"/) { $text .= "$l\tgclass\n"; next; }
        if ($l eq '') { $text .= "\n"; next; }
        my @f = split /\t/, $l, -1;
        $text .= join("\t", @f, $gclass{$guar{$f[1]} // ''} // 0) . "\n";
    }
    close($in);
    write_file("$dir/data/speedup-g.tsv", $text);
    my $titles = '';
    for my $i (0 .. $#maps) {
        (my $n = $maps[$i]{name}) =~ s/'/''/g;
        $titles .= "m$i = '$n'\n";
    }
    write_file("$dir/data/speedup-maps.gp", $titles);
}

# ---- queues per map, with intervals ---------------------------------------------
for my $m (@maps) {
    my $tm = $t{$m->{name}} // {};
    my @solvers = grep { @{$order_q{$m->{name}}{$_}} > 1 } sort { first_seen($a) <=> first_seen($b) } keys %$tm;
    my %qused;
    for my $s (@solvers) { $qused{$_} = 1 for @{$order_q{$m->{name}}{$s}}; }
    my @qs = grep { $qused{$_} } @queues;
    my $text = '';
    if (@solvers) {
        $text = join("\t", 'solver', map { ($_, "${_}_lo", "${_}_hi") } @qs) . "\n";
        for my $s (@solvers) {
            my $rq = exists $tm->{$s}{$refq} ? $refq : $order_q{$m->{name}}{$s}[0];
            my $base = $tm->{$s}{$rq}[0];
            my @row = ($s);
            for my $q (@qs) {
                my $v = $tm->{$s}{$q};
                if (!$v || $base eq 'NaN' || $base <= 0) { push @row, 'NaN', 'NaN', 'NaN'; next; }
                push @row, map { $_ eq 'NaN' ? 'NaN' : sprintf('%.6g', $_ / $base) } @$v;
            }
            $text .= join("\t", @row) . "\n";
        }
    }
    write_file("$dir/data/queues-$m->{slug}.tsv", $text);
}

# solver order: as the summary lists them (first appearance)
my %first;
sub first_seen {
    my $s = shift;
    unless (%first) {
        my $i = 0;
        $first{$_->[$col{solver}] // ''} //= $i++ for @sum;
    }
    return $first{$s} // 1e9;
}
exit 0;
