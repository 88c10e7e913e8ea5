import numpy as np
exec(open("proto3.py").read().split("def run")[0].replace("lam=max(0,E-lm)","lam=max(FLOOR*(E+EB),E-lm)").replace("E=specbound(sA,q)","E=specbound(sA,q); EB=sb*(np.sqrt(q)+np.sqrt(2*np.log(20)))"))
exec("def run"+open("proto3.py").read().split("def run")[1].split("for lab")[0])
for fl in [0,0.25,0.5,1.0]:
    FLOOR=fl
    print(f"floor {fl:5}", run(mode="ada",lmin=True), run(mode="ada",lmin=True,Cq=1.0))
