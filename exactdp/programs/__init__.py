"""Noise programs: a small language, its exact compiler and privacy checks (issue 28; ``docs/programs.md``).

>>> from exactdp.programs import parse_program, certify_program
>>> p = parse_program("output argmax(q + dlap(2))")
>>> certify_program(p, n=2, domain=(0, 1), relation="all-differ").holds
True
"""

from .check import (
    MAX_INPUTS, RELATIONS, certify_program, input_label, load_pairs, neighbour_pairs, program_mechanism,
    read_pairs_file, relation_metric,
)
from .compile import MAX_PATHS, base_power, output_distribution
from .language import Program, ProgramError, parse_program
from .ratfunc import RatFunc

__all__ = ["MAX_INPUTS", "MAX_PATHS", "RELATIONS", "Program", "ProgramError", "RatFunc", "base_power",
           "certify_program", "input_label", "load_pairs", "neighbour_pairs", "output_distribution",
           "parse_program", "program_mechanism", "read_pairs_file", "relation_metric"]
