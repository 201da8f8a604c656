/* readme.c -- the README's scenario example is a scenario that runs and
 * whose reference points hold (--check): a reader who copies it gets what
 * it says. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

START_TEST(readme_scenario_example)
{
    char *readme = cli_read("README.md");
    ck_assert_msg(readme, "README.md not found (tests run from the tree's root)");
    const char *sec = strstr(readme, "\n## Scenario files");
    ck_assert_msg(sec, "README.md has no '## Scenario files' section");
    const char *b = strstr(sec, "```yaml\n"), *e = b ? strstr(b + 8, "```") : NULL;
    ck_assert_msg(b && e, "no ```yaml block in the README's scenario section");
    char yaml[8192];
    ck_assert_int_lt((int)(e - b - 8), (int)sizeof yaml);
    snprintf(yaml, sizeof yaml, "%.*s", (int)(e - b - 8), b + 8);
    cli_write(yaml, "%s/readme.yaml", cli_tmp());
    struct cli_out r = cli_run("run '%s/readme.yaml' --check --out '%s/out'", cli_tmp(), cli_tmp());
    ck_assert_msg(r.status == 0, "the README's example: exit %d\n%s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "\ncheck: 2 of 2 paper points within tolerance"), "%s", r.out);
    cli_done();
}
END_TEST

void cli_register_readme(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "readme_example"), readme_scenario_example);
}
