"""Writes a GOAL schedule as text: the generators' shared output step.

The generators in this folder (ring_allreduce_goal.py, all_to_all_goal.py) build each
rank's block of lines and hand them here with their header comments.
"""


def print_schedule(header_lines, ranks, rank_block):
    """Prints the comment header, num_ranks and one block per rank (rank_block(rank))."""
    for line in header_lines:
        print(line)
    print(f"num_ranks {ranks}")
    for rank in range(ranks):
        print()
        print("\n".join(rank_block(rank)))
