import numpy as np
src=open("proto3.py").read().split("def run")[0]
src=src.replace("X=np.hstack([l2clip(xs,Cx),np.ones((n,1))]); B2=Cx**2+1","X=np.hstack([l2clip(xs,Cx),KC*Cx*np.ones((n,1))]); B2=Cx**2*(1+KC**2)")
src=src.replace("else: lam=max(E,2*E-w[0])","else: lam=E+sb*(np.sqrt(q)+np.sqrt(2*np.log(40)))")
exec(src)
r=open("proto3.py").read().split("def run")[1].split("for lab")[0].replace("np.ones((len(Xte),1))","KC*np.sqrt(Xte.shape[1])*np.ones((len(Xte),1))")
exec("def run"+r)
for kc in [1.0,0.5,0.3,0.15,0.05]:
    # KC relative to Cx=sqrt(p): constant = KC*sqrt(p); java today: KC=1 ; proto: KC=1/sqrt(p)
    KC=kc
    print(f"KC {kc}", run(mode="ada"))
