#!/usr/bin/perl
# csv-drop-timing.pl -- print a gridbench CSV without its timing columns, so
# that two runs of the same plan can be compared byte for byte with cmp(1).
#
#   scripts/csv-drop-timing.pl FILE.csv > FILE.untimed
#
# The timing columns are found by header name: time_ns, time_cold_ns,
# prep_ns, solver_time_ns, first20_ns, max_call_ns, prepare_ns (whichever
# exist).  Every other field is printed
# exactly as read, quotes included; records are RFC 4180 (a quoted field may
# hold commas, '""' and newlines), one record per output line as in the input.
#
# Exit status: 0 done; 2 unreadable file or a record whose field count is
# not the header's (message names the file and line).
use strict;
use warnings;

my %timing = map { $_ => 1 } qw(time_ns time_cold_ns prep_ns solver_time_ns first20_ns max_call_ns prepare_ns);
my $path = shift // die "usage: csv-drop-timing.pl FILE.csv\n";
open(my $fh, '<', $path) or do { print STDERR "csv-drop-timing: $path: $!\n"; exit 2 };

# Split one record (possibly spanning lines) into raw fields, quotes kept.
sub fields {
    my ($rec) = @_;
    my @f;
    while ($rec =~ /\G("(?:[^"]|"")*"|[^,]*)(,|\z)/gc) {
        push @f, $1;
        last if $2 eq '';
    }
    return @f;
}

my (@keep, $nhdr, $rec, $start);
my $line = 0;
while (my $l = <$fh>) {
    $line++;
    $l =~ s/\r?\n\z//;
    if (defined $rec) { $rec .= "\n" . $l } else { $rec = $l; $start = $line }
    next if (($rec =~ tr/"//) % 2);    # inside a quoted field: read on
    my @f = fields($rec);
    if (!defined $nhdr) {
        $nhdr = @f;
        @keep = grep { !$timing{$f[$_]} } 0 .. $#f;
    } elsif (@f != $nhdr) {
        print STDERR "csv-drop-timing: $path:$start: expected $nhdr fields, found " . scalar(@f) . "\n";
        exit 2;
    }
    print join(',', @f[@keep]), "\n";
    undef $rec;
}
if (defined $rec) { print STDERR "csv-drop-timing: $path:$start: quote left open at the end\n"; exit 2 }
exit 0;
