import numpy as np
exec(open("proto3.py").read().split("def run")[0].replace("else: lam=max(E,2*E-w[0])","else: lam=(E+sb*(np.sqrt(q)+np.sqrt(2*np.log(20))))*FLOOR"))
exec("def run"+open("proto3.py").read().split("def run")[1].split("for lab")[0])
for fl in [1.0,0.5]:
  for sh in [(0.5,0.5),(0.4,0.6),(0.6,0.4)]:
    FLOOR=fl
    print(f"fl {fl} {sh}", run(mode="ada",shares=sh), run(mode="ada",Cq=1.0,shares=sh))
