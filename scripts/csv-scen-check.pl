#!/usr/bin/perl
# csv-scen-check.pl -- check that a CSV of `gridbench run` (or of `gridbench
# merge`) ran on the given scenario files, before report.sh records their
# checksums in env.json as the files behind it (report.sh --csv).
#
#   scripts/csv-scen-check.pl FILE.csv SCEN...
#
# The CSV names no checksum, but every row names its scenario (column
# scen, the path as gridbench run was given it) and the query it ran (line,
# bucket, start_x, start_y, goal_x, goal_y).  Each scen value is
# matched to one SCEN: the same path, else the same file (realpath), else
# the only SCEN with the same base name (a CSV made on another machine).
# Then every row's query must be the query on that line of that SCEN, and
# every SCEN must have rows.  Any difference refuses.
#
# Exit status: 0 the CSV ran on these files; 1 it did not (the first
# difference is named on stderr); 2 unreadable input or bad usage.
use strict;
use warnings;
use Cwd qw(realpath);
use File::Basename qw(basename);
use Text::CSV;

sub fail { print STDERR "csv-scen-check: $_[1]\n"; exit $_[0] }

my ($csvf, @scens) = @ARGV;
fail(2, "usage: csv-scen-check.pl FILE.csv SCEN...") unless defined $csvf && @scens;

# The queries of each SCEN by file line: [bucket, sx, sy, gx, gy].  (Not the
# map: the CSV names the map gridbench found, which may be named otherwise.)
my (%q, %by_real, %by_base);
for my $s (@scens) {
    open(my $fh, '<', $s) or fail(2, "$s: $!");
    while (my $l = <$fh>) {
        $l =~ s/\r?\n\z//;
        my @f = split /[ \t]+/, $l;
        next unless @f == 9;
        $q{$s}{$.} = [$f[0], @f[4 .. 7]];
    }
    close($fh);
    my $r = realpath($s) // $s;
    $by_real{$r} //= $s;
    push @{$by_base{basename($s)}}, $s;
}

my $csv = Text::CSV->new({ binary => 1, strict => 1 }) or fail(2, "Text::CSV: " . Text::CSV->error_diag);
open(my $fh, '<', $csvf) or fail(2, "$csvf: $!");
my $hdr = $csv->getline($fh) or fail(2, "$csvf: expected a CSV header, found none");
my %col;
@col{@$hdr} = (0 .. $#$hdr);
for my $c (qw(scen line bucket start_x start_y goal_x goal_y)) {
    fail(2, "$csvf: expected a column $c (a CSV of gridbench run), found none") unless exists $col{$c};
}
my (%which, %used);
my $row = 1;
while (my $r = $csv->getline($fh)) {
    $row++;
    next if @$r == 1 && $r->[0] eq '';
    my $sv = $r->[$col{scen}];
    my $s = $which{$sv} //= do {
        my $real = realpath($sv);
        my $b = $by_base{basename($sv)} // [];
        (grep { $_ eq $sv } @scens)[0] // (defined $real ? $by_real{$real} : undef)
            // (@$b == 1 ? $b->[0] : undef)
            // fail(1, "$csvf:$row: expected the scenario of the row ('$sv') among the --scen files, "
                       . "found " . (@$b > 1 ? "several with its base name" : "none") . ": give the --scen files the CSV ran on");
    };
    $used{$s} = 1;
    my $line = $r->[$col{line}];
    my @got = map { $r->[$col{$_}] } qw(bucket start_x start_y goal_x goal_y);
    my $want = $q{$s}{$line};
    my $fmt = sub { my $x = shift; $x ? "bucket $x->[0], ($x->[1],$x->[2]) -> ($x->[3],$x->[4])" : "no query" };
    if (!$want || join("\x00", @$want) ne join("\x00", @got)) {
        fail(1, "$csvf:$row: expected the query of $s line $line (" . $fmt->($want) . "), found "
                . $fmt->(\@got) . " in the CSV: it did not run on this --scen file");
    }
}
my ($code, $msg) = $csv->error_diag;
fail(2, "$csvf:" . ($row + 1) . ": expected an RFC 4180 record, found error $code ($msg)")
    unless $csv->eof && ($code == 0 || $code == 2012);
close($fh);
for my $s (@scens) {
    fail(1, "--scen $s: expected a scenario the CSV ran on, found no row of it in $csvf") unless $used{$s};
}
exit 0;
