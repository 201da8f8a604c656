/* register.c -- the CLI tests: the ipcsim binary run as a subprocess. */
#include "cli.h"

void tests_register(void)
{
    cli_register_commands();
    cli_register_run();
    cli_register_errors();
    cli_register_report();
    cli_register_funbase();
    cli_register_expect();
    cli_register_sw26010();
    cli_register_plots();
    cli_register_errs();
    cli_register_prov();
    cli_register_overflow();
    cli_register_trace();
    cli_register_mpisim();
    cli_register_emsim();
    cli_register_variants();
    cli_register_relations();
    cli_register_keep_names();
    cli_register_readme();
    cli_register_chart();
    cli_register_sweep();
}
