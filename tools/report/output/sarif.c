// SPDX-License-Identifier: GPL-2.0
/* kplug-report: findings as SARIF 2.1.0. */
#include <stdlib.h>

#include "tools/report/report.h"

static void sarif_result(FILE *f, const struct finding *fd, int first)
{
	const struct rec *r = fd->r;
	char *msg = finding_message(fd);

	fprintf(f, "%s\n    {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"warning\",\n"
		"     \"message\": {\"text\": ", first ? "" : ",", rules[fd->rule].id, fd->rule);
	json_str(f, msg);
	free(msg);
	fprintf(f, "},\n     \"locations\": [{\"physicalLocation\": {\"artifactLocation\": "
		"{\"uri\": ");
	json_str(f, path_of(r->file));
	fprintf(f, ", \"uriBaseId\": \"SRCROOT\"}, \"region\": {\"startLine\": %d}}, "
		"\"logicalLocations\": [{\"name\": ", r->line > 0 ? r->line : 1);
	json_str(f, str_of(r->func));
	fprintf(f, ", \"kind\": \"function\"}]}],\n"
		"     \"partialFingerprints\": {\"kplugFunction/v1\": \"%016llx\"},\n"
		"     \"properties\": {\"M\": %d", (unsigned long long)fingerprint(r), r->m);
	if (r->has_parts)
		fprintf(f, ", \"own\": %d, \"macro\": %d, \"sanitizer\": %d, \"noreturn\": %d",
			r->own, r->macro, r->san, r->noret);
	if (fd->has_base)
		fprintf(f, ", \"baselineM\": %d", fd->base_m);
	fprintf(f, "}}");
}

void sarif(FILE *f, const struct finding *fds, size_t n)
{
	size_t i;

	fprintf(f, "{\n  \"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json\",\n"
		"  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
		"   \"tool\": {\"driver\": {\"name\": \"kplug-report\", \"version\": \"%s\",\n"
		"    \"rules\": [",
		VERSION);
	for (i = 0; i < nrules; i++) {
		fprintf(f, "%s\n     {\"id\": \"%s\", \"name\": \"%s\", \"shortDescription\": "
			"{\"text\": \"%s\"},\n      \"defaultConfiguration\": {\"level\": "
			"\"warning\"}, \"properties\": {\"threshold\": %ld}}", i ? "," : "",
			rules[i].id, rules[i].name, rules[i].text, opt.threshold);
	}
	fprintf(f, "]}},\n   \"originalUriBaseIds\": {\"SRCROOT\": {\"description\": "
		"{\"text\": \"the source tree the report paths are relative to\"}}},\n"
		"   \"columnKind\": \"utf16CodeUnits\",\n   \"results\": [");
	for (i = 0; i < n; i++)
		sarif_result(f, &fds[i], !i);
	fprintf(f, "]\n  }]\n}\n");
}
