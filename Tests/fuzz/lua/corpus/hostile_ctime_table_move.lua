-- table.move of 2^40 elements: one C call.
-- expect: instruction budget exhausted|time limit
-- exit: 3
table.move({}, 1, 1 << 40, 2)
