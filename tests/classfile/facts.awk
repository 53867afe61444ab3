# Reduces `javap -c -p -v` output (fmt=javap) or `tc-dump` output (fmt=dump) to the
# facts both print, one per line, in class-file order, so that the two decoders can be
# compared with diff:
#   class FILE                   a class file starts (its base name)
#   method                       a method's Code starts
#   OFFSET MNEMONIC [OPERAND]    an instruction (wide forms as javap names them: iinc_w)
#   case KEY TARGET / default T  switch entries
#   exc FROM TO HANDLER TYPE     exception table
#   line LINE START              LineNumberTable
#   lvt|lvtt START LEN SLOT NAME DESCRIPTOR
# usage: awk -v fmt=javap|dump -f facts.awk FILE
function section(s) { sec = s; switchy = 0 }
# The first operand: a local index, a constant, "#12" or a branch target.
function operand(s) { sub(/,$/, "", s); return s }
NF == 0 { next }
# one class starts: its file name (javap -v prints the path it was given)
fmt == "javap" && /^Classfile / { n = split($2, p, "/"); print "class", p[n]; section("none"); next }
fmt == "dump" && /^# / { n = split($2, p, "/"); print "class", p[n]; section("none"); next }
fmt == "javap" && /^ *Code:$/ { print "method"; section("code"); next }
fmt == "dump" && /^ *Code: max_stack/ { print "method"; section("code"); next }
# sections that end the code listing
/^ *(LineNumberTable|LocalVariableTable|LocalVariableTypeTable|StackMapTable|exception table|Exception table|RuntimeVisibleTypeAnnotations|RuntimeInvisibleTypeAnnotations|attribute )/ {
	if ($1 ~ /^LineNumberTable/) section("lnt")
	else if ($1 ~ /^LocalVariableTable:?$/) section("lvt")
	else if ($1 ~ /^LocalVariableTypeTable:?$/) section("lvtt")
	else if (tolower($1) == "exception") section("exc")
	else section("other")
	next
}
# anything at the indentation of a member or class header ends a method
fmt == "javap" && /^  [^ ]/ { section("none"); next }
fmt == "dump" && /^(  \[|[a-z])/ { section("none"); next }
sec == "code" {
	if ($1 == "}") { switchy = 0; next }
	if (switchy) {
		if ($1 == "default:") { print "default", $2; next }
		if ($1 ~ /^-?[0-9]+:$/) { k = $1; sub(/:$/, "", k); print "case", k, $2; next }
		next
	}
	if ($1 !~ /^[0-9]+:$/) next
	off = $1; sub(/:$/, "", off)
	op = $2; arg = $3
	if (fmt == "dump" && op == "wide") { op = $3 "_w"; arg = $4 }
	if (op == "tableswitch" || op == "lookupswitch") { print off, op; switchy = 1; next }
	if (arg == "" || arg == "//") print off, op
	else print off, op, operand(arg)
	next
}
# Table rows; any other line (javap -v prints method attributes after the code's
# tables) ends the table.
sec == "exc" {
	if (fmt == "javap" && $1 == "from") next
	if (fmt == "javap" && $1 ~ /^[0-9]+$/) {
		type = $4 == "any" ? "any" : $5
		print "exc", $1, $2, $3, type
	} else if (fmt == "dump" && $2 == "->") {
		split($1, r, /\.\./)
		print "exc", r[1], r[2], $3, $4
	} else {
		section("other")
	}
	next
}
sec == "lnt" {
	if (fmt == "javap" && $1 == "line") { l = $2; sub(/:$/, "", l); print "line", l, $3 }
	else if (fmt == "dump" && $2 == "line") { s = $1; sub(/:$/, "", s); print "line", $3, s }
	else section("other")
	next
}
sec == "lvt" || sec == "lvtt" {
	if (fmt == "javap" && $1 == "Start") next
	if (fmt == "javap" && $1 ~ /^[0-9]+$/) {
		print sec, $1, $2, $3, $4, $5
	} else if (fmt == "dump" && $2 == "slot") {
		split($1, r, /\.\./)
		print sec, r[1], r[2] - r[1], $3, $4, $5
	} else {
		section("other")
	}
	next
}
