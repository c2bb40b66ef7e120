#!/usr/bin/perl
# csv-cut.pl -- print chosen columns of a gridbench CSV, by header name, as
# tab-separated lines that awk -F'\t' can read whatever the fields hold:
#
#   scripts/csv-cut.pl FILE.csv COLUMN...
#
# The first output line is the header (the names asked for); then one line
# per record, the fields unquoted (RFC 4180, through Text::CSV: a quoted
# field may hold commas, '""' and newlines).  A tab, newline or carriage
# return inside a field becomes one space, so a map named "a,b" or a model
# "8-nocut+S=3,W=5" stays one field; backslashes are kept as they are.
# report.sh reads its run's CSV through this (status, model, tradeoff
# data) instead of awk -F, which would split such fields.
#
# Exit status: 0 done; 2 unreadable file, a column the header lacks, or a
# malformed record (the message names the file and record).
use strict;
use warnings;
use Text::CSV;

my ($path, @want) = @ARGV;
if (!defined $path || !@want) { print STDERR "usage: csv-cut.pl FILE.csv COLUMN...\n"; exit 2 }
open(my $fh, '<', $path) or do { print STDERR "csv-cut: $path: $!\n"; exit 2 };
my $csv = Text::CSV->new({ binary => 1, strict => 1 });
my $hdr = $csv->getline($fh) or do { print STDERR "csv-cut: $path:1: expected a header line, found none\n"; exit 2 };
my %col;
$col{ $hdr->[$_] } //= $_ for 0 .. $#$hdr;
for my $w (@want) {
    next if exists $col{$w};
    print STDERR "csv-cut: $path:1: expected a column '$w' in the header, found none\n";
    exit 2;
}
my @idx = map { $col{$_} } @want;
sub flat { my $v = shift // ''; $v =~ s/[\t\r\n]/ /g; return $v }
print join("\t", @want), "\n";
my $rec = 1;
while (my $row = $csv->getline($fh)) {
    $rec++;
    print join("\t", map { flat($row->[$_]) } @idx), "\n";
}
my ($code, $msg) = ($csv->error_diag)[0, 1];
if ($code && $code != 2012) {   # 2012: the end of the file
    print STDERR "csv-cut: $path: record @{[$rec + 1]}: expected a CSV record, found a malformed one ($msg)\n";
    exit 2;
}
exit 0;
