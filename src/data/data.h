/* data.h - the data files, the contract between the GPU half and the CPU
 * half: run files (row.h: the columns; csv.h: reading and writing them),
 * their '#' metadata (meta.h), the ceilings file (ceilings.h) and the
 * tuning tables of the size-dispatched kernels (tuning.h), the roofs a
 * kernel runs under (roofs.h) and where a traced program's GPU time goes
 * (hotspots.h).  Everything
 * that measures writes these; everything that draws, compares or writes up
 * reads only these. */
#ifndef GP_DATA_H
#define GP_DATA_H

#include "meta.h"
#include "row.h"
#include "csv.h"
#include "ceilings.h"
#include "tuning.h"
#include "roofs.h"
#include "hotspots.h"

#endif
