import Strata
print("x")
