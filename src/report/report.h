/* report.h - `gemmprof report DATA.csv ...`: everything a write-up needs
 * (summary pages, every chart, tables as Markdown, LaTeX and text, the data)
 * in one folder, drawn from data files alone (report.c, tables.c). */
#ifndef GP_REPORT_H
#define GP_REPORT_H

int gp_cmd_report(int argc, char **argv);  /* gemmprof report DATA.csv ... */

#endif
