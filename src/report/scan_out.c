/* scan's output in the one format asked, a file at a time: text, the
 * JSON document streamed, or a SARIF log written at the end; a file that
 * changed while it was read leaves nothing in any of them. */
#include "report.h"
#include "../results/sarif.h"

static void print_text(const struct scan_out *o, struct elf_image *img,
		       const struct scan_result *r, FILE *out)
{
	struct scan_rows rows;

	scan_rows(r, o->limit, o->min_share, o->list_all, &rows);
	scan_rows_resolve(&rows, img, r, o->source_lines);
	report_scan_text(out, img, r, &rows,
			 &(struct scan_text_opts){ .list_all = o->list_all, .min_share = o->min_share });
	scan_rows_free(&rows);
}

void scan_out_begin(struct scan_out *o, const struct shard_info *shard)
{
	if (o->uarch_why[0] && !o->json && !o->sarif_asked)
		printf("%s\n", o->uarch_why);
	if (o->sarif_asked)
		o->sarif = sarif_new(&(struct sarif_head){ o->source_root, o->argc, o->argv,
			o->profiles, o->nprofiles, shard });
	if (o->json) {
		/* tens of megabytes: write them in large blocks */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		results_scan_begin(&o->doc, stdout, &(struct scan_head){ o->argc, o->argv,
			o->profiles, o->nprofiles, o->uarch_why, o->have_hot, o->min_share, shard });
	}
}

void scan_out_failed(struct scan_out *o, const char *name, size_t input, const char *msg)
{
	if (o->json)
		results_scan_error(&o->doc, name, input, msg);
	if (o->sarif)
		sarif_notify(o->sarif, name, input, NULL, msg);
}

/* A file's output is made in memory and goes out only if the file did not
 * change while it was read, through the printing (names and source lines
 * are read from the image): a file changed mid-scan has no partial rows. */
int scan_out_file(struct scan_out *o, struct elf_image *img, const struct scan_result *r,
		  size_t input)
{
	struct json_stream saved = o->doc.out;
	struct strbuf buf = { 0 };
	FILE *mem = sb_stream(&buf);
	size_t nsarif = o->sarif ? sarif_count(o->sarif) : 0;
	bool changed;

	if (!mem)
		return -1;
	if (o->json) {
		o->doc.out.f = mem;
		results_scan_file(&o->doc.out, img, r, o->source_lines, input);
		o->doc.out.f = saved.f;
	} else if (o->sarif) {
		sarif_add_scan(o->sarif, img, r, &(struct sarif_rows){ o->min_share, o->source_root,
			       o->source_lines, input });
	} else {
		print_text(o, img, r, mem);
	}
	fclose(mem);
	changed = elf_changed(img);
	if (changed)
		o->doc.out = saved;     /* the element never happened */
	if (changed && o->sarif)
		sarif_truncate(o->sarif, nsarif);
	if (!changed && buf.len)
		fwrite(buf.s, 1, buf.len, stdout);
	sb_free(&buf);
	return changed;
}
