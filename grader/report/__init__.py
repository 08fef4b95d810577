"""What a grade run shows people: the HTML reports (templates beside them) and JUnit XML."""
