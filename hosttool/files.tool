main.c
modes.h
modes.c
modtable.h
modtable.c
ktable_check.c
elfrel.c
